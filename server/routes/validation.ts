import Ajv from 'ajv';
import type { FastifyInstance } from 'fastify';
import { cleanStrings } from '../core/clean-text.ts';
import { integerMax, isBigintText, parseMsIdCursor, telegramUserIdMax } from '../core/db/column-ranges.ts';

/**
 * Strict schemas: unknown properties are refused (not silently stripped, Fastify's default), and
 * bodies are never coerced ("5" is not a count). Query strings are text, so they are coerced, but
 * an integer schema still refuses 1.5, 1e309 and "abc".
 */
const base = { allErrors: false, removeAdditional: false, useDefaults: true, strict: false } as const;
const bodyAjv = new Ajv({ ...base, coerceTypes: false });
const textAjv = new Ajv({ ...base, coerceTypes: true });
// Text forms of BIGINT keys (server/core/db/column-ranges.ts): exact as text, where a JS number is not.
for (const ajv of [bodyAjv, textAjv]) {
  ajv.addFormat('bigint-id', { type: 'string', validate: (s: string) => isBigintText(s) });
  ajv.addFormat('ms-id-cursor', { type: 'string', validate: (s: string) => parseMsIdCursor(s) !== null });
}

export const installValidation = (app: FastifyInstance): void => {
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema));
  // An empty body on a POST without parameters is fine (the mini-app sends none on /claim);
  // anything else goes through Fastify's prototype-poisoning-safe JSON parser.
  const strictJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 16_384 }, (request, raw, done) => {
    const text = typeof raw === 'string' ? raw : raw.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    strictJson(request, text, done);
  });
  // Before validation, so a cleaned value is what the schema and the handler see.
  // A callback hook, not an async one: it runs on every request and never waits.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.body !== undefined) request.body = cleanStrings(request.body);
    request.query = cleanStrings(request.query);
    request.params = cleanStrings(request.params);
    done();
  });
};

/** Schema pieces shared by the routes. */
export const int = (minimum: number, maximum: number, description?: string) =>
  ({ type: 'integer', minimum, maximum, ...(description !== undefined ? { description } : {}) }) as const;

export const obj = <P extends Record<string, unknown>>(properties: P, required: (keyof P & string)[] = []) =>
  ({ type: 'object', additionalProperties: false, properties, required }) as const;

/**
 * Ids and cursors within their columns' ranges (docs/api.md "Errors"), so none reaches a query
 * out of range: an INTEGER id (tasks.id), a Telegram user id (users.id), a BIGSERIAL id answered
 * as a number (broadcasts.id; exact in JS up to 2^53−1), and keyset cursors as text (any BIGINT).
 */
export const integerId = int(1, integerMax);
export const telegramUserId = int(1, telegramUserIdMax, 'Telegram user id');
export const rowId = int(1, Number.MAX_SAFE_INTEGER);
export const bigintCursor = { type: 'string', format: 'bigint-id', maxLength: 19, description: 'the `next` of the previous page: a row id, 1..9223372036854775807' } as const;
export const msIdCursor = { type: 'string', format: 'ms-id-cursor', maxLength: 39, description: 'the `next` of the previous page: `<ms>:<id>`, two BIGINTs' } as const;

/** A write without parameters: no body, or `{}`. */
export const emptyBody = { type: ['object', 'null'], additionalProperties: false, properties: {} } as const;
/** A route without query parameters: any is refused. */
export const noQuery = obj({});
