/**
 * Request logging without secrets. Fastify logs `req.url` with its query string, and some of our
 * URLs carry credentials there: Adsgram's callback key, and X's OAuth `code` and `state`.
 */
const secretQueryParams = ['key', 'code', 'state', 'api_key', 'token'];

/** The URL with the values of secret query parameters replaced by `[redacted]`. */
export const redactUrl = (url: string): string => {
  const queryAt = url.indexOf('?');
  if (queryAt < 0) return url;
  const params = new URLSearchParams(url.slice(queryAt + 1));
  for (const name of secretQueryParams) if (params.has(name)) params.set(name, '[redacted]');
  return `${url.slice(0, queryAt)}?${params.toString()}`;
};

interface LoggedRequest {
  method: string;
  url: string;
  hostname?: string;
  ip?: string;
}

/** Pino serializers for Fastify's request log lines. */
export const logSerializers = {
  req: (req: LoggedRequest) => ({ method: req.method, url: redactUrl(req.url), hostname: req.hostname, remoteAddress: req.ip }),
};

/** Adds the redacting serializers to a Fastify logger option (kept as is when logging is off). */
export const withRedaction = (logger: boolean | object | undefined): boolean | object => {
  if (!logger) return false;
  const options = logger === true ? {} : (logger as { serializers?: object });
  return { ...options, serializers: { ...logSerializers, ...(options.serializers ?? {}) } };
};
