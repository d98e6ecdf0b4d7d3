/**
 * One way to call an outside service: a JSON request with a hard timeout. Every failure becomes an
 * `OutsideServiceError` naming the service, so callers fail closed with a clear reason.
 */
export type ServiceFailure = 'unconfigured' | 'unreachable' | 'timeout' | 'bad-response' | 'refused';

/**
 * A failed outside call: a fault, not a refusal. The edge answers one that reaches it as
 * `outsideServiceUnavailable` (503) naming only the service; `message` (logs, tests) says what
 * happened, settings and URLs included, and never reaches a client.
 */
export class OutsideServiceError extends Error {
  override readonly name = 'OutsideServiceError';
  constructor(
    readonly service: string,
    readonly failure: ServiceFailure,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${service}: ${failure}${detail ? ` (${detail})` : ''}`, options);
  }

  /** What happened, for the logs: `<service>: <failure> (<detail>)`. */
  get detail(): string {
    return this.message;
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
    if (name === 'TimeoutError' || name === 'AbortError') throw new OutsideServiceError(service, 'timeout', `no answer in ${timeoutMs} ms`, { cause: err });
    throw new OutsideServiceError(service, 'unreachable', (err as Error).message, { cause: err });
  }
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    const name = (err as Error).name;
    throw new OutsideServiceError(service, name === 'TimeoutError' ? 'timeout' : 'unreachable', (err as Error).message, { cause: err });
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
