/**
 * The console's API (docs/admin.md) under adminApiPrefix: sign-in, then players, cheat signals,
 * tasks, the audit log, the dashboard, broadcasts and the forecast. One guard hook covers every
 * route registered after sign-in, so no route can forget it.
 */
import type { FastifyPluginAsync } from 'fastify';
import { adminIdsOf } from '../core/config/admin-config.ts';
import { listAudit } from '../audit/exports.ts';
import { actorOf, cheatSignals, createAdminGuard, createTask, listAdminTasks, parseTaskInput, playerDetail, playerLedger, playerReferrals, recentPlayers, reorderTasks, searchPlayers, setFrozen, updateTask } from '../console/exports.ts';
import type { FrozenSet } from '../players/exports.ts';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../core/config/config.ts';
import type { Db } from '../core/db/db.ts';
import { refuse } from '../core/errors.ts';
import type { AdminContext } from './admin-context.ts';
import type { ServedRound } from '../airdrop/exports.ts';
import { adminAuthRoutes } from './admin-auth.ts';
import { adminOpsRoutes } from './admin-ops.ts';
import { adminShopRoutes } from './admin-shop.ts';
import { adminDailyRoutes } from './admin-daily.ts';
import { integrityConsoleRoutes } from './integrity.ts';
import { bigintCursor, emptyBody, integerId, msIdCursor, noQuery, obj, telegramUserId } from './validation.ts';

// Every id and cursor within its column (docs/admin.md "Input"): users.id BIGINT (a Telegram id), tasks.id INTEGER.
const playerParam = obj({ id: telegramUserId }, ['id']);
const taskParam = obj({ id: integerId }, ['id']);
/** A task form's fields, typed; their rules (all bad fields at once) are parseTaskInput's. */
const taskBody = obj({
  type: { type: 'string', maxLength: 32 },
  handleType: { type: ['string', 'null'], maxLength: 32 },
  title: { type: 'string', maxLength: 1_000 },
  // By language; which languages and how long is parseTaskInput's (each bad one named).
  titles: { type: 'object', maxProperties: 16, additionalProperties: { type: 'string', maxLength: 1_000 } },
  image: { type: 'string', maxLength: 2_048 },
  desc: { type: 'string', maxLength: 2_000 },
  link: { type: 'string', maxLength: 2_048 },
  reward: { type: ['string', 'number'], maxLength: 32 },
  isDaily: { type: 'boolean' },
  needsCaptcha: { type: 'boolean' },
  active: { type: 'boolean' },
});

const consoleRoutes: FastifyPluginAsync<AdminContext> = async (app, ctx) => {
  app.addHook('onRequest', ctx.guard);
  // Like the guard, for every route of the scope (docs/admin.md "Input"): a query or a write's body
  // that its schema does not describe is refused, so a route cannot forget its schema.
  app.addHook('onRoute', (route) => {
    const schema = (route.schema ??= {});
    schema.querystring ??= noQuery;
    if (route.method !== 'GET' && route.method !== 'HEAD') schema.body ??= emptyBody;
  });

  // Without a term (or a blank one): the players who joined last (docs/admin.md "Players").
  app.get('/players', { schema: { querystring: obj({ q: { type: 'string', maxLength: 64 } }) } }, async (request) => {
    const term = (request.query as { q?: string }).q?.trim() ?? '';
    return { items: term === '' ? await recentPlayers(ctx.reads) : await searchPlayers(ctx.reads, term) };
  });
  app.get('/players/:id', { schema: { params: playerParam } }, async (request) => playerDetail(ctx.reads, (request.params as { id: number }).id));
  app.get('/players/:id/ledger', { schema: { params: playerParam, querystring: obj({ before: bigintCursor }) } }, async (request) =>
    playerLedger(ctx.reads, (request.params as { id: number }).id, (request.query as { before?: string }).before),
  );
  app.get('/players/:id/referrals', { schema: { params: playerParam, querystring: obj({ before: msIdCursor }) } }, async (request) =>
    playerReferrals(ctx.reads, (request.params as { id: number }).id, (request.query as { before?: string }).before),
  );
  app.post(
    '/players/:id/freeze',
    { schema: { params: playerParam, body: obj({ frozen: { type: 'boolean' }, reason: { type: 'string', maxLength: 500 } }, ['frozen']) } },
    async (request) => {
      const { id } = request.params as { id: number };
      const { frozen, reason } = request.body as { frozen: boolean; reason?: string };
      const frozenAt = await setFrozen(ctx.db, actorOf(request), id, frozen, reason ?? '', ctx.clock.now());
      ctx.frozen.set(id, frozen);
      return { id: String(id), frozenAt };
    },
  );
  app.get('/cheats', { schema: { querystring: obj({ sort: { type: 'string', enum: ['clipped', 'refused'] } }) } }, async (request) => ({
    items: await cheatSignals(ctx.reads, (request.query as { sort?: 'clipped' | 'refused' }).sort ?? 'clipped'),
  }));

  app.get('/tasks', async () => ({ items: await listAdminTasks(ctx.db) }));
  app.post('/tasks', { schema: { body: taskBody } }, async (request) => createTask(ctx.db, actorOf(request), parseTaskInput(request.body), ctx.clock.now()));
  app.put('/tasks/:id', { schema: { params: taskParam, body: taskBody } }, async (request) =>
    updateTask(ctx.db, actorOf(request), (request.params as { id: number }).id, parseTaskInput(request.body), ctx.clock.now()),
  );
  app.post(
    '/tasks/reorder',
    { schema: { body: obj({ ids: { type: 'array', maxItems: 1000, items: integerId } }, ['ids']) } },
    async (request) => ({ items: await reorderTasks(ctx.db, actorOf(request), (request.body as { ids: number[] }).ids, ctx.clock.now()) }),
  );

  app.get('/audit', { schema: { querystring: obj({ before: bigintCursor, action: { type: 'string', maxLength: 64 } }) } }, async (request) => {
    const q = request.query as { before?: string; action?: string };
    return listAudit(ctx.reads, { limit: 50, ...(q.before !== undefined ? { before: q.before } : {}), ...(q.action ? { action: q.action } : {}) });
  });

  await app.register(adminOpsRoutes, ctx);
  await app.register(adminShopRoutes, ctx);
  await app.register(adminDailyRoutes, ctx);
  await app.register(integrityConsoleRoutes, ctx);
};

export interface AdminDeps {
  db: Db;
  reads: Db;
  config: Config;
  clock: Clock;
  frozen: FrozenSet;
  airdrop: ServedRound;
}

/** The console API plugin (register with prefix adminApiPrefix). */
export const adminRoutes: FastifyPluginAsync<AdminDeps> = async (app, deps) => {
  if (deps.config.BOT_TOKEN === undefined) throw refuse('consoleNeedsBotToken');
  const session = {
    db: deps.db,
    clock: deps.clock,
    adminIds: adminIdsOf(deps.config),
    ttlS: deps.config.ADMIN_SESSION_TTL_S,
    publicUrl: deps.config.PUBLIC_URL,
  };
  // Named fields only: the register options also carry `prefix`, which must not reach the children.
  const ctx: AdminContext = { db: deps.db, reads: deps.reads, config: deps.config, clock: deps.clock, frozen: deps.frozen, airdrop: deps.airdrop, session, guard: createAdminGuard(session) };
  await app.register(adminAuthRoutes, ctx);
  await app.register(consoleRoutes, ctx);
};
