/**
 * Cloudflare Turnstile siteverify (https://developers.cloudflare.com/turnstile/get-started/server-side-validation/).
 * A token passes only when siteverify says success, for one of our hostnames and the expected
 * action. Single use is enforced by our database (captcha-store.ts), not only by Cloudflare.
 */
import { asRecord, OutsideServiceError, requestJson, requireSettings } from '../core/outside-http.ts';

export interface TurnstileOptions {
  verifyUrl: string;
  secret: string;
  /** Hostnames the widget may be served from; siteverify's `hostname` must be one of them. */
  hostnames: readonly string[];
  timeoutMs: number;
}

export type CaptchaVerdict = { ok: true } | { ok: false; reason: string };

/** Turnstile tokens are at most 2048 characters (Cloudflare docs). */
export const maxTurnstileTokenLength = 2048;

/**
 * Asks siteverify about one token. Throws OutsideServiceError when it is unconfigured, unreachable,
 * slow or answers garbage; the caller turns that into a refusal (fail closed).
 */
export const siteverify = async (
  opts: TurnstileOptions,
  token: string,
  action: string,
  remoteIp?: string,
): Promise<CaptchaVerdict> => {
  requireSettings('turnstile', { TURNSTILE_SECRET: opts.secret, TURNSTILE_VERIFY_URL: opts.verifyUrl });
  if (!token || token.length > maxTurnstileTokenLength) return { ok: false, reason: 'malformed token' };
  const form = new URLSearchParams({ secret: opts.secret, response: token });
  if (remoteIp) form.set('remoteip', remoteIp);
  const answer = await requestJson(
    'turnstile',
    opts.verifyUrl,
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() },
    opts.timeoutMs,
  );
  if (answer.status !== 200) throw new OutsideServiceError('turnstile', 'bad-response', `status ${answer.status}`);
  const body = asRecord('turnstile', answer.body);
  if (body.success !== true) {
    const codes = Array.isArray(body['error-codes']) ? body['error-codes'].join(',') : 'unknown';
    return { ok: false, reason: `siteverify refused: ${codes}` };
  }
  if (typeof body.hostname !== 'string' || !opts.hostnames.includes(body.hostname)) {
    return { ok: false, reason: `hostname ${String(body.hostname)} not allowed` };
  }
  if (body.action !== action) return { ok: false, reason: `action ${String(body.action)} is not ${action}` };
  return { ok: true };
};
