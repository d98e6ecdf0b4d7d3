/**
 * Fake Cloudflare Turnstile siteverify (POST form or JSON { secret, response, remoteip }).
 * Tokens are registered by the test with the hostname and action the widget would have signed.
 * `rememberUsed: false` makes the fake accept a token twice, to prove our own single-use check.
 */
import { startFakeServer, type FakeServer } from './fake-server.ts';

export interface FakeTurnstileToken {
  hostname: string;
  action: string;
}

export interface FakeTurnstile extends FakeServer {
  /** The siteverify URL to put in config. */
  verifyUrl: string;
  secret: string;
  addToken(token: string, claims: FakeTurnstileToken): void;
  /** Mutable by tests: `delayMs` answers late (our timeout); `rememberUsed: false` accepts replays. */
  settings: { delayMs: number; rememberUsed: boolean };
}

export const startFakeTurnstile = async (secret = 'turnstile-secret'): Promise<FakeTurnstile> => {
  const tokens = new Map<string, FakeTurnstileToken>();
  const used = new Set<string>();
  const settings = { delayMs: 0, rememberUsed: true };
  const server = await startFakeServer((req) => {
    const delayMs = settings.delayMs;
    if (req.method !== 'POST' || req.path !== '/turnstile/v0/siteverify') return { status: 404, json: {} };
    const fail = (code: string) => ({ delayMs, json: { success: false, 'error-codes': [code] } });
    if (req.fields.secret !== secret) return fail('invalid-input-secret');
    const token = String(req.fields.response ?? '');
    const claims = tokens.get(token);
    if (!claims) return fail('invalid-input-response');
    if (settings.rememberUsed && used.has(token)) return fail('timeout-or-duplicate');
    used.add(token);
    return {
      delayMs,
      json: {
        success: true,
        challenge_ts: new Date().toISOString(),
        hostname: claims.hostname,
        action: claims.action,
        'error-codes': [],
      },
    };
  });
  return {
    ...server,
    verifyUrl: `${server.url}/turnstile/v0/siteverify`,
    secret,
    addToken: (token, claims) => void tokens.set(token, claims),
    settings,
  };
};
