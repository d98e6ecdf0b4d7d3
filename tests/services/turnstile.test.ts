import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/background/settings.ts';
import { createOutsideServices } from '../../server/tasks/outside-services.ts';
import type { OutsideServices } from '../../server/tasks/task-evidence.ts';
import { startFakeTurnstile, type FakeTurnstile } from '../../server/dev/stand-ins/fake-turnstile.ts';
import { backends, openServicesHarness, testEnv, type ServicesHarness } from './harness.ts';

describe.each(backends)('Turnstile siteverify (%s)', (backend) => {
  let ts: FakeTurnstile;
  let h: ServicesHarness;
  let services: OutsideServices;
  beforeAll(async () => {
    ts = await startFakeTurnstile();
    h = await openServicesHarness(backend, { TURNSTILE_SECRET: ts.secret, TURNSTILE_VERIFY_URL: ts.verifyUrl, OUTSIDE_TIMEOUT_MS: '1500' });
    services = createOutsideServices({ db: h.db, config: h.config, clock: h.clock, log: () => {} });
  });
  afterAll(async () => {
    await h?.close();
    await ts?.close();
  });

  const issued = (claims: Partial<{ hostname: string; action: string }> = {}) => {
    return ts.solve({ sitekey: ts.siteKey, hostname: 'money.example', action: 'claim-task', ...claims });
  };

  it('accepts a valid token for our hostname and the expected action, sending the secret and IP', async () => {
    const token = issued();
    expect(await services.verifyCaptcha(token, 'claim-task', '203.0.113.9')).toBe(true);
    const req = ts.requests.at(-1)!;
    expect(req.fields).toMatchObject({ secret: ts.secret, response: token, remoteip: '203.0.113.9' });
  });

  it('refuses what siteverify refuses, another hostname, or another action', async () => {
    expect(await services.verifyCaptcha('never-issued', 'claim-task')).toBe(false);
    expect(await services.verifyCaptcha(issued({ hostname: 'evil.example' }), 'claim-task')).toBe(false);
    expect(await services.verifyCaptcha(issued({ action: 'login' }), 'claim-task')).toBe(false);
    expect(await services.verifyCaptcha('', 'claim-task')).toBe(false);
  });

  it('refuses a replayed token by its own record, without asking siteverify again', async () => {
    const token = issued();
    expect(await services.verifyCaptcha(token, 'claim-task')).toBe(true);
    const calls = ts.requests.length;
    expect(await services.verifyCaptcha(token, 'claim-task')).toBe(false);
    expect(ts.requests.length).toBe(calls);
  });

  it('refuses a token older than 300 s and one drawn without the action', async () => {
    const old = issued();
    ts.advance(300_001);
    expect(await services.verifyCaptcha(old, 'claim-task')).toBe(false);
    expect(await services.verifyCaptcha(ts.solve({ sitekey: ts.siteKey, hostname: 'money.example' }), 'claim-task')).toBe(false);
  });

  it('refuses when siteverify is too slow', async () => {
    ts.settings.delayMs = 3_000;
    try {
      expect(await services.verifyCaptcha(issued(), 'claim-task')).toBe(false);
    } finally {
      ts.settings.delayMs = 0;
    }
  });

  it('refuses when siteverify is unreachable or the secret is missing', async () => {
    const down = loadConfig(testEnv(backend, { TURNSTILE_SECRET: ts.secret, TURNSTILE_VERIFY_URL: 'http://127.0.0.1:9/siteverify', OUTSIDE_TIMEOUT_MS: '1500' }));
    const unreachable = createOutsideServices({ db: h.db, config: down, clock: h.clock, log: () => {} });
    expect(await unreachable.verifyCaptcha(issued(), 'claim-task')).toBe(false);
    const unconfigured = createOutsideServices({ db: h.db, config: { ...h.config, TURNSTILE_SECRET: '' }, clock: h.clock, log: () => {} });
    expect(await unconfigured.verifyCaptcha(issued(), 'claim-task')).toBe(false);
  });
});
