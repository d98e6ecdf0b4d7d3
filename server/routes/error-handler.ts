/**
 * The edge's one error handler: every error leaves as JSON `{ error, message, field? }`, a domain
 * refusal with the status of its kind (server/core/http-errors.ts), a schema error with the field
 * it is about.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { messages } from '../../engine/messages.ts';
import { isUnavailable } from '../core/db/errors.ts';
import { DomainError } from '../core/errors.ts';
import { HttpError, badRequest, body, toHttpError, unavailable } from '../core/http-errors.ts';

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** The field a schema error is about: a missing property, else the last segment of its path. */
const fieldOf = (v: AjvError, context: string | undefined): string | undefined => {
  if (v.keyword === 'required') return String(v.params.missingProperty);
  if (v.keyword === 'additionalProperties') return String(v.params.additionalProperty);
  const seg = v.instancePath.split('/').filter(Boolean).pop();
  return seg ?? context;
};

/** Seconds a client should wait before retrying while the database is away (docs/faults.md). */
export const dbRetryAfterS = 1;

// PostgreSQL refuses text it cannot store (22021 NUL byte, 22P05 untranslatable); the edge cleans
// such text first (server/core/clean-text.ts), so reaching the database with it is a 400, never a 500.
const badTextCodes = new Set(['22021', '22P05']);

const statusText: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 413: 'Payload Too Large', 415: 'Unsupported Media Type' };

/** Every error leaves as JSON `{ error, message, field? }`; unexpected ones are logged and never leak details. */
export const installErrorHandler = (app: FastifyInstance): void => {
  app.setErrorHandler((thrown: FastifyError | HttpError | DomainError, request, reply) => {
    const err = thrown instanceof DomainError ? toHttpError(thrown) : thrown;
    if (err instanceof HttpError) return reply.status(err.status).send(body(err));
    const fe = err as FastifyError & { validation?: AjvError[]; validationContext?: string };
    if (fe.validation !== undefined && fe.validation.length > 0) {
      const v = fe.validation[0]!;
      const context = fe.validationContext;
      const field = fieldOf(v, context);
      const message =
        v.keyword === 'required'
          ? `Required parameter "${field}" is missing`
          : v.keyword === 'additionalProperties'
            ? `Unknown parameter "${field}"`
            : v.keyword === 'type' && v.instancePath === '' && context === 'body'
              ? 'Request body must be a JSON object'
              : `Parameter "${field}" ${v.message ?? 'is invalid'}`;
      return reply.status(400).send(body(badRequest(message, field)));
    }
    if (isUnavailable(err)) {
      request.log.warn({ err }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', String(dbRetryAfterS))
        .send(body(unavailable('The game is reconnecting to its database, please try again in a moment')));
    }
    if (badTextCodes.has(String((err as { code?: unknown }).code))) return reply.status(400).send(body(badRequest('Text contains characters that cannot be stored')));
    const status = fe.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message = fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.name === 'SyntaxError' ? 'Request body is not valid JSON' : err.message;
      return reply.status(status).send({ error: statusText[status] ?? 'Bad Request', message });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ error: 'Internal Server Error', message: messages.somethingWrong });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({ error: 'Not Found', message: `No route ${request.method} ${request.url.split('?')[0]}` }),
  );
};
