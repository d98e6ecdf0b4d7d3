/**
 * The console's own routes (docs/admin.md) under adminApiPrefix: sign-in (docs/admin.md "Sign-in":
 * the Telegram Login Widget's signed fields, or the init data Telegram gives /admin when the bot's
 * /admin button opens it; only ADMIN_IDS get a session; sign-in itself is refused cross-site, login
 * CSRF), then in the console's scope (`consoleScope`, route-context.ts) players, cheat signals,
 * tasks, the dashboard and broadcasts. Another feature's console page is in that feature's route file.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { AdminSession } from '../../engine/admin-types.ts';
import { initDataSecret, verifyInitData } from '../players/exports.ts';
import { consoleActor, recordAudit } from '../audit/exports.ts';
import { parseBroadcast } from '../bot/exports.ts';
import {
  actorOf,
  adminBroadcast,
  adminOf,
  cancelBroadcast,
  cheatSignals,
  checkSameOrigin,
  clearedCookieHeader,
  createSession,
  createTask,
  deleteSession,
  enqueueSegmentBroadcast,
  listAdminTasks,
  parseSegment,
  parseTaskInput,
  playerDetail,
  playerLedger,
  playerReferrals,
  readDashboard,
  recentBroadcasts,
  recentPlayers,
  reorderTasks,
  searchPlayers,
  sessionCookieHeader,
  setFrozen,
  updateTask,
  verifyLoginWidget,
} from '../console/exports.ts';
import { refuse } from '../core/errors.ts';
import { broadcastBody } from './bot.ts';
import { consoleScope, type ConsoleContext } from './route-context.ts';
import { bigintCursor, emptyBody, integerId, msIdCursor, obj, rowId, telegramUserId } from './validation.ts';

const sessionOf = (i: { adminId: number; name: string; csrfToken: string; expiresAtMs: number }): AdminSession => ({
  adminId: i.adminId,
  name: i.name,
  csrfToken: i.csrfToken,
  expiresAtMs: i.expiresAtMs,
});

/** Sign-in, the session and sign-out: the one part of the console outside its scope (the session routes take the guard themselves). */
export const consoleSignInRoutes: FastifyPluginAsync<ConsoleContext> = async (app, ctx) => {
  const botToken = ctx.config.BOT_TOKEN!;
  const secret = initDataSecret(botToken);
  const maxAgeS = ctx.config.ADMIN_LOGIN_MAX_AGE_S;

  const signIn = async (request: Parameters<typeof checkSameOrigin>[0], adminId: number, name: string) => {
    const cross = checkSameOrigin(request, ctx.config.PUBLIC_URL);
    if (cross) throw cross;
    if (!ctx.session.adminIds.has(adminId)) throw refuse('notAnAdmin');
    const { token, identity } = await createSession(ctx.session, adminId, name);
    await recordAudit(ctx.db, { actor: consoleActor(adminId), action: 'session.sign-in', target: `admin:${adminId}`, nowMs: ctx.clock.now() });
    return { token, identity };
  };

  // The one body that takes fields it does not name: every field is Telegram's and signed (the
  // data-check-string covers them all), so a field Telegram adds must not lock admins out.
  const widgetBody = { type: 'object', maxProperties: 12, propertyNames: { pattern: '^[a-z_]{1,32}$' }, additionalProperties: { type: ['string', 'number'], maxLength: 512 } } as const;
  app.post('/login/widget', { schema: { hide: true, body: widgetBody } }, async (request, reply) => {
    const check = verifyLoginWidget(request.body as Record<string, unknown>, botToken, ctx.clock.now(), maxAgeS);
    if (!check.ok) throw check.refusal;
    const { token, identity } = await signIn(request, check.userId, check.name);
    return reply.header('set-cookie', sessionCookieHeader(request, token, ctx.config.ADMIN_SESSION_TTL_S, ctx.config.PUBLIC_URL)).send(sessionOf(identity));
  });

  app.post(
    '/login/init-data',
    { schema: { hide: true, body: obj({ initData: { type: 'string', maxLength: 8192 } }, ['initData']) } },
    async (request, reply) => {
      const { initData } = request.body as { initData: string };
      if (initData.trim() === '') throw refuse('initDataRequired', { field: 'initData' });
      const check = verifyInitData(initData, secret, ctx.clock.now(), maxAgeS);
      if (!check.ok) throw refuse(check.code, { field: 'initData' });
      const u = check.data.user;
      const { token, identity } = await signIn(request, u.id, u.username ? `@${u.username}` : u.first_name);
      return reply.header('set-cookie', sessionCookieHeader(request, token, ctx.config.ADMIN_SESSION_TTL_S, ctx.config.PUBLIC_URL)).send(sessionOf(identity));
    },
  );

  app.get('/session', { onRequest: ctx.guard, schema: { hide: true } }, async (request) => sessionOf(adminOf(request)));

  app.post('/logout', { onRequest: ctx.guard, schema: { hide: true, body: emptyBody } }, async (request, reply) => {
    await deleteSession(ctx.db, request);
    await recordAudit(ctx.db, { actor: actorOf(request), action: 'session.sign-out', target: `admin:${adminOf(request).adminId}`, nowMs: ctx.clock.now() });
    return reply.header('set-cookie', clearedCookieHeader(request, ctx.config.PUBLIC_URL)).send({ ok: true });
  });
};

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

// broadcasts.id is a BIGSERIAL, answered as a number (exact up to 2^53−1).
const broadcastParam = obj({ id: rowId }, ['id']);
/** A segment's fields, typed (days a number, never "30"); which kind takes which field, and the ranges, are parseSegment's. */
const segmentSchema = obj(
  {
    kind: { type: 'string', enum: ['all', 'language', 'active', 'test'] },
    languageCode: { type: 'string', maxLength: 16 },
    days: { type: 'integer' },
    userIds: { type: 'array', maxItems: 1_000, items: { type: 'string', maxLength: 32 } },
  },
  ['kind'],
);

/** Players, cheat signals, tasks, the dashboard and broadcasts (docs/admin.md), in the console's scope. */
export const consoleRoutes = consoleScope(async (app, ctx) => {
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

  app.get('/dashboard', async () => readDashboard(ctx.reads));

  app.get('/broadcasts', async () => ({ items: await recentBroadcasts(ctx.db) }));
  app.get('/broadcasts/:id', { schema: { params: broadcastParam } }, async (request) => adminBroadcast(ctx.db, (request.params as { id: number }).id));
  app.post('/broadcasts', { schema: { body: obj({ ...broadcastBody.properties, segment: segmentSchema }) } }, async (request, reply) => {
    const b = request.body as { message?: unknown; btns?: unknown; segment?: unknown };
    const parsed = parseBroadcast({ message: b.message, btns: b.btns });
    if (!parsed.ok) throw parsed.refusal;
    const segment = parseSegment(b.segment);
    const queued = await enqueueSegmentBroadcast(ctx.db, actorOf(request), parsed.broadcast, segment, ctx.clock.now());
    return reply.status(202).send(queued);
  });
  // No body: the console scope's schema default (consoleScope) refuses any field.
  app.post('/broadcasts/:id/cancel', { schema: { params: broadcastParam } }, async (request) => {
    const { id } = request.params as { id: number };
    const cancelled = await cancelBroadcast(ctx.db, actorOf(request), id, ctx.clock.now());
    return { id, cancelled };
  });
});
