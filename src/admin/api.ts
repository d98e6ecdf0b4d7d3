/**
 * The console's one transport: same-origin fetch with the session cookie, the CSRF header on every
 * write, a timeout, and errors as AdminApiError (with the field, or every field, the server named).
 */
import { adminApiPrefix, csrfHeader, type AdminError } from '../../engine/wire/admin-types.ts';
import { errorMessageOf } from '../../engine/wire/error-body.ts';
import { retryDelayMs } from '../../engine/client/retry.ts';
import { retrying } from '../retry-load.ts';

export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
    readonly fields?: Record<string, string>,
    /** A 503's Retry-After: the server is shedding load or its database is away, and asks to come back. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

let csrfToken = '';
/** Set from the session after sign-in; sent as the CSRF header on writes. */
export const setCsrfToken = (token: string) => {
  csrfToken = token;
};

const timeoutMs = 15_000;

/** Retry-After in seconds (the server's form), as milliseconds; undefined when absent or not a number. */
const retryAfterMsOf = (r: Response): number | undefined => {
  const seconds = Number(r.headers.get('retry-after') ?? Number.NaN);
  return r.status === 503 && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1_000 : undefined;
};

export const adminRequest = async <T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T> => {
  let r: Response;
  try {
    r = await fetch(`${adminApiPrefix}${path}`, {
      method,
      credentials: 'same-origin',
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(method !== 'GET' ? { [csrfHeader]: csrfToken } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch {
    throw new AdminApiError(0, 'The server did not answer; check the connection and try again.');
  }
  const json = (await r.json().catch(() => ({}))) as Partial<AdminError> & T;
  if (!r.ok) throw new AdminApiError(r.status, errorMessageOf(json) ?? `HTTP ${r.status}`, json.field, json.fields, retryAfterMsOf(r));
  return json;
};

/**
 * How often a read answered 503 with Retry-After (the server shedding load, or its database away:
 * docs/faults.md) is tried. It is tried again calmly, the page loading meanwhile: each wait is the
 * one backoff (engine/client/retry.ts), never shorter than the server asked; with its 1 s Retry-After
 * about a minute in all, after which the page shows the server's message. Writes are never resent.
 */
export const busyReadAttempts = 7;

const busyWaitMs = (attempt: number, err: unknown): number | undefined =>
  err instanceof AdminApiError && err.retryAfterMs !== undefined ? Math.max(err.retryAfterMs, retryDelayMs(attempt)) : undefined;

export const get = <T>(path: string): Promise<T> => retrying(() => adminRequest<T>('GET', path), { attempts: busyReadAttempts, waitMs: busyWaitMs });
export const post = <T>(path: string, body: unknown = {}) => adminRequest<T>('POST', path, body);
export const put = <T>(path: string, body: unknown) => adminRequest<T>('PUT', path, body);
