/**
 * The console's API (docs/admin.md) under adminApiPrefix: sign-in, then players, cheat signals,
 * tasks, the audit log, the dashboard, broadcasts and the forecast. One guard hook covers every
 * route registered after sign-in, so no route can forget it.
 */
import type { FastifyError, FastifyPluginAsync } from 'fastify';
import { adminIdsOf } from '../core/config/admin-config.ts';
import { FieldErrors, createTask, listAdminTasks, parseTaskInput, reorderTasks, updateTask } from '../console/admin-tasks.ts';
import { listAudit } from '../console/audit.ts';
import type { FrozenSet } from '../players/frozen-set.ts';
import { adminOf, createAdminGuard } from '../console/sessions.ts';
import { cheatSignals, playerDetail, playerLedger, playerReferrals, searchPlayers, setFrozen } from '../console/players.ts';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../core/config/config.ts';
import type { Db } from '../core/db/db.ts';
import { badRequest, body, toHttpError } from '../core/http-errors.ts';
import type { AdminContext } from './admin-context.ts';
import type { ServedRound } from '../airdrop/served-round.ts';
import { adminAuthRoutes } from './admin-auth.ts';
import { adminOpsRoutes } from './admin-ops.ts';

const idParam = { type: 'object', properties: { id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } }, required: ['id'] } as const;
const cursorQuery = { type: 'object', properties: { before: { type: 'string', maxLength: 64, pattern: '^[0-9:]*$' } } } as const;

const consoleRoutes: FastifyPluginAsync<AdminContext> = async (app, ctx) => {
  app.addHook('onRequest', ctx.guard);

  app.get('/players', { schema: { querystring: { type: 'object', properties: { q: { type: 'string', maxLength: 64 } }, required: ['q'] } } }, async (request) => ({
    items: await searchPlayers(ctx.db, (request.query as { q: string }).q),
  }));
  app.get('/players/:id', { schema: { params: idParam } }, async (request) => playerDetail(ctx.db, (request.params as { id: number }).id));
  app.get('/players/:id/ledger', { schema: { params: idParam, querystring: cursorQuery } }, async (request) => {
    const before = (request.query as { before?: string }).before;
    return playerLedger(ctx.db, (request.params as { id: number }).id, before ? Number(before) : undefined);
  });
  app.get('/players/:id/referrals', { schema: { params: idParam, querystring: cursorQuery } }, async (request) =>
    playerReferrals(ctx.db, (request.params as { id: number }).id, (request.query as { before?: string }).before || undefined),
  );
  app.post(
    '/players/:id/freeze',
    { schema: { params: idParam, body: { type: 'object', properties: { frozen: { type: 'boolean' }, reason: { type: 'string', maxLength: 500 } }, required: ['frozen'] } } },
    async (request) => {
      const { id } = request.params as { id: number };
      const { frozen, reason } = request.body as { frozen: boolean; reason?: string };
      const frozenAt = await setFrozen(ctx.db, adminOf(request).adminId, id, frozen, reason ?? '', ctx.clock.now());
      ctx.frozen.set(id, frozen);
      return { id: String(id), frozenAt };
    },
  );
  app.get('/cheats', { schema: { querystring: { type: 'object', properties: { sort: { type: 'string', enum: ['clipped', 'refused'] } } } } }, async (request) => ({
    items: await cheatSignals(ctx.db, (request.query as { sort?: 'clipped' | 'refused' }).sort ?? 'clipped'),
  }));

  app.get('/tasks', async () => ({ items: await listAdminTasks(ctx.db) }));
  app.post('/tasks', async (request) => createTask(ctx.db, adminOf(request).adminId, parseTaskInput(request.body), ctx.clock.now()));
  app.put('/tasks/:id', { schema: { params: idParam } }, async (request) =>
    updateTask(ctx.db, adminOf(request).adminId, (request.params as { id: number }).id, parseTaskInput(request.body), ctx.clock.now()),
  );
  app.post(
    '/tasks/reorder',
    { schema: { body: { type: 'object', properties: { ids: { type: 'array', maxItems: 1000, items: { type: 'integer', minimum: 1 } } }, required: ['ids'] } } },
    async (request) => ({ items: await reorderTasks(ctx.db, adminOf(request).adminId, (request.body as { ids: number[] }).ids, ctx.clock.now()) }),
  );

  app.get('/audit', { schema: { querystring: { type: 'object', properties: { before: { type: 'string', pattern: '^[0-9]{0,19}$' }, action: { type: 'string', maxLength: 64 } } } } }, async (request) => {
    const q = request.query as { before?: string; action?: string };
    return listAudit(ctx.db, { limit: 50, ...(q.before ? { before: Number(q.before) } : {}), ...(q.action ? { action: q.action } : {}) });
  });

  await app.register(adminOpsRoutes, ctx);
};

export interface AdminDeps {
  db: Db;
  config: Config;
  clock: Clock;
  frozen: FrozenSet;
  airdrop: ServedRound;
}

/** The console API plugin (register with prefix adminApiPrefix). */
export const adminRoutes: FastifyPluginAsync<AdminDeps> = async (app, deps) => {
  // The console's forms show every bad field at once.
  app.setErrorHandler((err: FastifyError, _request, reply) => {
    if (err instanceof FieldErrors) return reply.status(400).send({ ...body(toHttpError(err)), fields: err.fields });
    throw err;
  });
  if (deps.config.BOT_TOKEN === undefined) throw badRequest('The console needs BOT_TOKEN');
  const session = {
    db: deps.db,
    clock: deps.clock,
    adminIds: adminIdsOf(deps.config),
    ttlS: deps.config.ADMIN_SESSION_TTL_S,
    publicUrl: deps.config.PUBLIC_URL,
  };
  // Named fields only: the register options also carry `prefix`, which must not reach the children.
  const ctx: AdminContext = { db: deps.db, config: deps.config, clock: deps.clock, frozen: deps.frozen, airdrop: deps.airdrop, session, guard: createAdminGuard(session) };
  await app.register(adminAuthRoutes, ctx);
  await app.register(consoleRoutes, ctx);
};
