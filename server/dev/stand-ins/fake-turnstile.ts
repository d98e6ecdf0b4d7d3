/**
 * A stand-in for Cloudflare Turnstile, as strict as the real one
 * (https://developers.cloudflare.com/turnstile/get-started/server-side-validation/):
 * - a widget is drawn with a site key and an action; `solve()` (or `POST /demo/solve`, used by the
 *   demo widget) is what a visitor solving it yields: a token bound to that action and hostname,
 *   and only for the site key this stand-in was made with;
 * - siteverify (`POST /turnstile/v0/siteverify`, form or JSON) needs the secret paired with that
 *   site key, lets each token be verified once, refuses tokens older than 300 s, and reports the
 *   `action` and `hostname` the widget was drawn and solved with (an empty action when none was given).
 * Tests and the `npm start` demo use this one implementation (docs/outside-services.md).
 */
import { randomBytes } from 'node:crypto';
import { startFakeServer, type FakeServer } from './fake-server.ts';

/** What the widget was drawn with and where it was solved. */
export interface TurnstileWidget {
  sitekey: string;
  action?: string;
  hostname: string;
}

export interface FakeTurnstile extends FakeServer {
  /** The siteverify URL to put in config. */
  verifyUrl: string;
  secret: string;
  siteKey: string;
  /** A visitor solves the widget: the token, or an Error for a widget drawn with another site key. */
  solve(widget: TurnstileWidget): string;
  /** Moves this stand-in's clock forward (token expiry). */
  advance(ms: number): void;
  /** Mutable by tests: `delayMs` answers late (our timeout). */
  settings: { delayMs: number };
}

/** Cloudflare: a token is valid for 300 seconds after it is issued. */
export const turnstileTokenTtlMs = 300_000;

interface Issued {
  action: string;
  hostname: string;
  issuedAtMs: number;
}

export const startFakeTurnstile = async (secret = 'turnstile-secret', siteKey = '0x4AAAAAAAdemo-site-key'): Promise<FakeTurnstile> => {
  const tokens = new Map<string, Issued>();
  const spent = new Set<string>();
  const settings = { delayMs: 0 };
  let offsetMs = 0;
  const now = () => Date.now() + offsetMs;

  const solve = (w: TurnstileWidget): string => {
    // The real widget does not render for an unknown site key (error 110100), so no token exists.
    if (w.sitekey !== siteKey) throw new Error(`turnstile: unknown site key ${w.sitekey}`);
    const token = `0.${randomBytes(24).toString('base64url')}`;
    tokens.set(token, { action: w.action ?? '', hostname: w.hostname, issuedAtMs: now() });
    return token;
  };

  const server = await startFakeServer((req) => {
    const delayMs = settings.delayMs;
    if (req.method === 'POST' && req.path === '/demo/solve') {
      const f = req.fields;
      try {
        return { json: { token: solve({ sitekey: String(f.sitekey ?? ''), action: String(f.action ?? ''), hostname: String(f.hostname ?? '') }) } };
      } catch (err) {
        return { status: 400, json: { error: (err as Error).message } };
      }
    }
    if (req.path !== '/turnstile/v0/siteverify') return { status: 404, json: {} };
    const fail = (code: string, status = 200) => ({ status, delayMs, json: { success: false, 'error-codes': [code], messages: [] } });
    if (req.method !== 'POST') return fail('bad-request', 405);
    const f = req.fields;
    if (!f.secret) return fail('missing-input-secret');
    if (f.secret !== secret) return fail('invalid-input-secret');
    if (!f.response) return fail('missing-input-response');
    const token = String(f.response);
    const issued = tokens.get(token);
    if (!issued) return fail('invalid-input-response');
    // Each token is verified once, whatever the outcome.
    if (spent.has(token)) return fail('timeout-or-duplicate');
    spent.add(token);
    if (now() - issued.issuedAtMs > turnstileTokenTtlMs) return fail('timeout-or-duplicate');
    return {
      delayMs,
      json: {
        success: true,
        challenge_ts: new Date(issued.issuedAtMs).toISOString(),
        hostname: issued.hostname,
        action: issued.action,
        cdata: '',
        'error-codes': [],
        messages: [],
      },
    };
  });
  return {
    ...server,
    verifyUrl: `${server.url}/turnstile/v0/siteverify`,
    secret,
    siteKey,
    solve,
    advance: (ms) => void (offsetMs += ms),
    settings,
  };
};
