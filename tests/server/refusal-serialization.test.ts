/**
 * Every route answers only its documented shapes (docs/api.md "Errors"): a route's response schema
 * for an error status must carry every refusal the edge may answer with that status, `code` and
 * `field` included, the database away and `overloaded` among them. Fastify serializes an answer
 * through the route's schema, so a refusal that does not fit becomes a 500
 * FST_ERR_FAILED_ERROR_SERIALIZATION, or loses its `code`.
 *
 * The routes and their schemas are read from the served OpenAPI document; each error schema is
 * tried through Fastify's own serializer and the edge's own error handler.
 */
import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { refusalCodes, type RefusalCode } from '../../engine/wire/refusals.ts';
import { apiPrefix } from '../../engine/wire/api-types.ts';
import { refuse } from '../../server/core/errors.ts';
import { isSheddable } from '../../server/core/load-shedding.ts';
import { installErrorHandler } from '../../server/routes/error-handler.ts';
import { statusOfCode } from '../../server/routes/refusal-status.ts';
import { openForSuite, openHarness } from './harness.ts';

/** The probes never refuse: their handlers catch every fault into their own shapes, and they are never shed. */
const meetsNoRefusal = new Set(['/livez', '/readyz']);

interface OpenApi {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
}

/** The refusal codes an error schema declared under `key` (a status, `4XX`/`5XX`, or `default`) may have to carry. */
const codesFor = (key: string): RefusalCode[] =>
  refusalCodes.filter((code) => {
    const status = statusOfCode[code];
    if (key === 'default') return true;
    if (/^[45]XX$/i.test(key)) return String(status)[0] === key[0];
    return String(status) === key;
  });

describe('refusals fit every route that documents an error answer', () => {
  const h = openForSuite(() => openHarness('pglite'));
  let doc: OpenApi;
  beforeAll(async () => {
    doc = (await h.app.inject({ method: 'GET', url: `${apiPrefix}/openapi.json` })).json<OpenApi>();
  });

  it('lists the probes as never shed', () => {
    for (const path of meetsNoRefusal) expect(isSheddable(path)).toBe(false);
    expect(isSheddable(`${apiPrefix}/click`)).toBe(true);
  });

  it('serializes every refusal through every documented error schema, with its code and field', async () => {
    // One small app per distinct schema and status: the edge's handler answers each refusal.
    const schemas = new Map<string, { key: string; schema: unknown; routes: string[] }>();
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        for (const [key, response] of Object.entries(op.responses ?? {})) {
          if (!/^([45](\d\d|XX)|default)$/i.test(key)) continue;
          const schema = response.content?.['application/json']?.schema;
          if (schema === undefined) continue;
          const route = `${method.toUpperCase()} ${path}`;
          if (meetsNoRefusal.has(path)) continue;
          const id = `${key} ${JSON.stringify(schema)}`;
          const entry = schemas.get(id) ?? { key, schema, routes: [] };
          entry.routes.push(route);
          schemas.set(id, entry);
        }
      }
    }
    expect(schemas.size).toBeGreaterThan(0);
    const misfits: string[] = [];
    for (const { key, schema, routes } of schemas.values()) {
      const codes = codesFor(key);
      const app = Fastify();
      installErrorHandler(app);
      const status = /^\d+$/.test(key) ? Number(key) : undefined;
      app.get('/refuse/:code', { schema: { response: { [status ?? key]: schema } } }, async (request) => {
        throw refuse((request.params as { code: RefusalCode }).code, { field: 'some.field', retryAfterS: 1 });
      });
      for (const code of codes) {
        const r = await app.inject({ method: 'GET', url: `/refuse/${code}` });
        const body = r.json<{ code?: string; field?: string }>();
        if (r.statusCode !== statusOfCode[code] || body.code !== code || body.field !== 'some.field') misfits.push(`${code} through ${key} of ${routes[0]} (+${routes.length - 1}): ${r.statusCode} ${r.body}`);
      }
      await app.close();
    }
    expect(misfits).toEqual([]);
  });
});
