/**
 * The console's one transport: same-origin fetch with the session cookie, the CSRF header on every
 * write, a timeout, and errors as AdminApiError (with the field, or every field, the server named).
 */
import { adminApiPrefix, csrfHeader, type AdminError } from '../../engine/admin-types.ts';
import { errorMessageOf } from '../../engine/error-body.ts';

export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
    readonly fields?: Record<string, string>,
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
  if (!r.ok) throw new AdminApiError(r.status, errorMessageOf(json) ?? `HTTP ${r.status}`, json.field, json.fields);
  return json;
};

export const get = <T>(path: string) => adminRequest<T>('GET', path);
export const post = <T>(path: string, body: unknown = {}) => adminRequest<T>('POST', path, body);
export const put = <T>(path: string, body: unknown) => adminRequest<T>('PUT', path, body);
