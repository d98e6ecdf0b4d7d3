/**
 * The edge's one error handler: every error leaves as JSON `{ error, message, field?, code }`
 * (docs/api.md "Errors"). A refusal (server/core/errors.ts) is answered with the status of its code
 * (./refusal-status.ts), a schema error with the field it is about, an outside service's fault as
 * `outsideServiceUnavailable`, the database away as `databaseAway` with Retry-After (`outcomeUnknown`
 * when a commit's answer was lost, so the change may be stored) (a refusal that
 * carries its own `retryAfterS`, as `overloaded` does, sends that); anything else is logged and
 * answered `internalError` without details.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from '../../engine/wire/api-types.ts';
import type { RefusalCode } from '../../engine/wire/refusals.ts';
import { CommitUnknown, isUnavailable } from '../core/db/errors.ts';
import { metrics } from '../core/metrics.ts';
import { Refusal, refuse } from '../core/errors.ts';
import { OutsideServiceError } from '../core/outside-http.ts';
import { reasonOfStatus, retryAfterOfCode, statusOfCode } from './refusal-status.ts';

export { dbRetryAfterS } from './refusal-status.ts';

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A JSON pointer as the field it names, as the features name fields: `/segment/days` → `segment.days`, `/btns/0` → `btns[0]`. */
const pathOf = (pointer: string): string =>
  pointer
    .split('/')
    .filter(Boolean)
    .map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, seg) => (/^\d+$/.test(seg) ? `${path}[${seg}]` : path === '' ? seg : `${path}.${seg}`), '');

/** The field a schema error is about: a missing or unknown property, else the value's path. */
const fieldOf = (v: AjvError, context: string | undefined): string | undefined => {
  const at = pathOf(v.instancePath);
  const child = v.keyword === 'required' ? v.params.missingProperty : v.keyword === 'additionalProperties' ? v.params.additionalProperty : undefined;
  if (child !== undefined) return at === '' ? String(child) : `${at}.${String(child)}`;
  return at === '' ? context : at;
};

/** The refusal of a schema error: the first problem, naming its field. */
const schemaRefusal = (v: AjvError, context: string | undefined, cause: unknown): Refusal => {
  const field = fieldOf(v, context);
  if (v.keyword === 'required') return refuse('requiredParameter', { field, cause });
  if (v.keyword === 'additionalProperties') return refuse('unknownParameter', { field, cause });
  if (v.keyword === 'type' && v.instancePath === '' && context === 'body') return refuse('bodyNotObject', { field, cause });
  return refuse('invalidParameter', { field, values: { rule: v.message ?? 'is invalid' }, cause });
};

// PostgreSQL refuses text it cannot store (22021 NUL byte, 22P05 untranslatable); the edge cleans
// such text first (server/core/clean-text.ts), so reaching the database with it is a 400, never a 500.
const badTextCodes = new Set(['22021', '22P05']);

/** The body of an answer with `status`. */
const bodyOf = (status: number, code: RefusalCode, message: string, field?: string): ErrorBody => ({
  error: reasonOfStatus[status] ?? (status < 500 ? 'Bad Request' : 'Internal Server Error'),
  message,
  ...(field !== undefined ? { field } : {}),
  code,
});

const sendRefusal = (request: FastifyRequest, reply: FastifyReply, refusal: Refusal, status = statusOfCode[refusal.code]) => {
  if (status === 500 && refusal.code !== 'internalError') {
    // A broken invariant (negativeCredit): a bug, logged, and never shown as a refusal.
    request.log.error({ err: refusal }, 'broken invariant');
    return reply.status(500).send(bodyOf(500, 'internalError', refuse('internalError').message));
  }
  const retryAfterS = refusal.retryAfterS ?? retryAfterOfCode[refusal.code];
  if (retryAfterS !== undefined) void reply.header('retry-after', String(retryAfterS));
  const sent = bodyOf(status, refusal.code, refusal.message, refusal.field);
  return reply.status(status).send(refusal.fields === undefined ? sent : { ...sent, fields: refusal.fields });
};

/** The refusal an error is answered with (a schema error, an outside fault, the database away…), or null. */
const refusalOf = (err: FastifyError & { validation?: AjvError[]; validationContext?: string }): Refusal | null => {
  if (err instanceof Refusal) return err;
  if (err instanceof OutsideServiceError) return refuse('outsideServiceUnavailable', { values: { service: err.service }, cause: err });
  if (err.validation !== undefined && err.validation.length > 0) return schemaRefusal(err.validation[0]!, err.validationContext, err);
  // A commit whose answer was lost may have stored the change: never "nothing changed" (docs/api.md "Errors").
  if (err instanceof CommitUnknown) return refuse('outcomeUnknown', { cause: err });
  if (isUnavailable(err)) return refuse('databaseAway', { cause: err });
  if (badTextCodes.has(String(err.code))) return refuse('textNotStorable', { cause: err });
  return null;
};

/**
 * Every error leaves as JSON `{ error, message, field?, code }`; unexpected ones are logged and never
 * leak details. A refusal is only read, never changed: the load shedding throws one frozen refusal
 * for every shed request (server/core/load-shedding.ts).
 */
export const installErrorHandler = (app: FastifyInstance): void => {
  app.setErrorHandler((thrown: FastifyError & { validation?: AjvError[]; validationContext?: string }, request, reply) => {
    const refusal = refusalOf(thrown);
    if (refusal !== null) {
      if (refusal.code === 'databaseAway' || refusal.code === 'outcomeUnknown') {
        request.log.warn({ err: thrown }, 'database unavailable');
        metrics.http.dbUnavailable.inc();
      }
      if (refusal.code === 'outsideServiceUnavailable') request.log.warn({ err: thrown }, 'outside service unavailable');
      return sendRefusal(request, reply, refusal);
    }
    const status = thrown.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const invalidJson = thrown.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || thrown.name === 'SyntaxError';
      return sendRefusal(request, reply, invalidJson ? refuse('invalidJson', { cause: thrown }) : refuse('requestRefused', { values: { detail: thrown.message }, cause: thrown }), status);
    }
    request.log.error({ err: thrown }, 'unhandled error');
    return sendRefusal(request, reply, refuse('internalError', { cause: thrown }));
  });
  app.setNotFoundHandler((request, reply) => sendRefusal(request, reply, refuse('noRoute', { values: { method: request.method, path: request.url.split('?')[0]! } })));
};
