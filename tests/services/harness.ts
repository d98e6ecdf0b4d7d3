/**
 * The real app with the real OutsideServices, configured to talk to fakes on 127.0.0.1: the one
 * harness (tests/server/harness.ts) with `createOutsideServices` and a public URL.
 */
import { createOutsideServices } from '../../server/tasks/outside-services.ts';
import { backends, botToken, expectMoney, moneyOf, openForSuite, openHarness, startMs, testEnv as baseEnv, type Backend, type Harness } from '../server/harness.ts';

export { backends, botToken, expectMoney, moneyOf, openForSuite, startMs };

export type ServicesHarness = Harness;

/** The outside-service tests' environment: the base one with PUBLIC_URL set. */
export const testEnv = (backend: Backend, env: Record<string, string> = {}) => baseEnv(backend, { PUBLIC_URL: 'https://money.example', ...env });

export const openServicesHarness = (backend: Backend, env: Record<string, string> = {}): Promise<Harness> =>
  openHarness(backend, (parts) => createOutsideServices({ ...parts, log: () => {} }), { PUBLIC_URL: 'https://money.example', ...env });

/** Polls `check` until it holds; past `ms` throws naming `what` (a bound on a hang, not a timed assertion). */
export const waitFor = async (check: () => boolean | Promise<boolean>, what: string, ms = 60_000): Promise<void> => {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};
