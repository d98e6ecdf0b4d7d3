/**
 * One way to call an outside service: a JSON request with a hard timeout. Every failure becomes an
 * `OutsideServiceError` naming the service, so callers fail closed with a clear reason.
 */
import { HttpError } from './http-errors.ts';

export type ServiceFailure = 'unconfigured' | 'unreachable' | 'timeout' | 'bad-response' | 'refused';

/**
 * A failed outside call. This folder is an adapter at the edge, so it is an HttpError 503: a route
 * that lets it through answers a clear "unavailable" without leaking URLs; `detail` (logs, tests)
 * says what happened.
 */
export class OutsideServiceError extends HttpError {
  readonly detail: string;
  constructor(
    readonly service: string,
    readonly failure: ServiceFailure,
    detail: string,
  ) {
    super(503, 'Service Unavailable', `The ${service} check is unavailable right now, please try again later`);
    this.name = 'OutsideServiceError';
    this.detail = `${service}: ${failure}${detail ? ` (${detail})` : ''}`;
  }
}

export interface HttpAnswer {
  status: number;
  /** Parsed JSON, or null when the body is not JSON. */
  body: unknown;
}

/** Fails with 'unconfigured' when any of the named settings is empty. */
export const requireSettings = (service: string, settings: Record<string, string | undefined>): void => {
  const missing = Object.entries(settings).filter(([, v]) => !v).map(([k]) => k);
  if (missing.length) throw new OutsideServiceError(service, 'unconfigured', `missing ${missing.join(', ')}`);
};

/** fetch with a timeout; network errors and timeouts become OutsideServiceError. Any status is returned. */
export const requestJson = async (service: string, url: string, init: RequestInit, timeoutMs: number): Promise<HttpAnswer> => {
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const name = (err as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') throw new OutsideServiceError(service, 'timeout', `no answer in ${timeoutMs} ms`);
    throw new OutsideServiceError(service, 'unreachable', (err as Error).message);
  }
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    const name = (err as Error).name;
    throw new OutsideServiceError(service, name === 'TimeoutError' ? 'timeout' : 'unreachable', (err as Error).message);
  }
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: res.status, body };
};

/** The object at `body`, or a 'bad-response' error. */
export const asRecord = (service: string, body: unknown): Record<string, unknown> => {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new OutsideServiceError(service, 'bad-response', 'not a JSON object');
  return body as Record<string, unknown>;
};
