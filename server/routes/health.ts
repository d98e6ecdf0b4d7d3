/**
 * The operators' routes, outside the API prefix and without auth (docs/operations.md): /livez,
 * /readyz, /healthz and, only when METRICS_TOKEN is set, /metrics behind its bearer token (any
 * other caller gets the same 404 as an unknown route; the OpenAPI document never lists it).
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Config } from '../background/exports.ts';
import type { Db } from '../core/db/db.ts';
import type { DbReadiness } from '../core/db/probe.ts';
import { dbRetryAfterS } from './error-handler.ts';
import { refuse } from '../core/errors.ts';
import { metrics, scrape, unmatchedRoute } from '../core/metrics.ts';
import { secretMatches } from '../core/secret-compare.ts';

export interface HealthDeps {
  db: Db;
  config: Config;
  /** The database's readiness (server/core/db/probe.ts). */
  probe(): Promise<DbReadiness>;
  /**
   * True once shutdown has begun; notes `checker`, the address polling /readyz, as a balancer to
   * be told before the port closes (server/core/shutdown.ts).
   */
  draining(checker: string): boolean;
}

const ok = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } as const;
const notReady = {
  type: 'object',
  properties: { ok: { type: 'boolean' }, reason: { type: 'string', enum: ['database', 'migrations', 'draining'] }, message: { type: 'string' } },
  required: ['ok', 'reason', 'message'],
} as const;

export const healthRoutes: FastifyPluginAsync<HealthDeps> = async (app, deps) => {
  app.get(
    '/livez',
    { schema: { summary: 'Liveness: 200 while the event loop turns; touches nothing else', tags: ['operations'], response: { 200: ok } } },
    async () => ({ ok: true }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        summary: 'Readiness: 200 when the database answers, every migration is applied and the process is not draining; else 503 with the reason',
        tags: ['operations'],
        response: { 200: ok, 503: notReady },
      },
    },
    async (request, reply) => {
      // The socket's peer, not a forwarded address: a balancer's checks are its own requests.
      const state: DbReadiness | { ok: false; reason: 'draining'; message: string } = deps.draining(request.socket.remoteAddress ?? '')
        ? { ok: false, reason: 'draining', message: 'The process is shutting down' }
        : await deps.probe();
      if (!state.ok) void reply.status(503).header('retry-after', String(dbRetryAfterS));
      return state;
    },
  );

  // The older combined check (docs/deploy.md): the database's failure becomes the API's own 503.
  app.get(
    '/healthz',
    { schema: { summary: 'Up, and the database answers SELECT 1 (503 while it is away or the process closes); prefer /readyz', tags: ['operations'], response: { 200: ok } } },
    async () => {
      await deps.db.query('SELECT 1');
      return { ok: true };
    },
  );

  const metricsToken = deps.config.METRICS_TOKEN;
  if (metricsToken === undefined) return;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const presented = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (presented === undefined || !secretMatches(presented, metricsToken)) return reply.callNotFound();
    try {
      const { contentType, text } = await scrape();
      return reply.type(contentType).send(text);
    } catch (err) {
      // WORKERS=N: a worker did not answer the merge in time; a partial sum would look like a reset.
      request.log.warn({ err }, 'metrics: no merged scrape');
      throw refuse('metricsNotMerged', { cause: err });
    }
  });
};

/**
 * Times every request by method, route pattern and status (money_http_request_duration_seconds):
 * one histogram observation per request, on the root instance so that every route has it.
 */
export const installHttpMetrics = (app: FastifyInstance): void => {
  const histogram = metrics.http.requestSeconds;
  app.addHook('onResponse', (request, reply, done) => {
    histogram.observe({ method: request.method, route: request.routeOptions.url ?? unmatchedRoute, status: String(reply.statusCode) }, reply.elapsedTime / 1_000);
    done();
  });
};
