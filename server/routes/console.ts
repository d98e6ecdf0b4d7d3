/**
 * The console's own routes (docs/admin.md) under adminApiPrefix: sign-in (docs/admin.md "Sign-in":
 * the Telegram Login Widget's signed fields, or the init data Telegram gives /admin when the bot's
 * /admin button opens it; only ADMIN_IDS get a session; sign-in itself is refused cross-site, login
 * CSRF), then in the console's scope (`consoleScope`, route-context.ts) players, cheat signals,
 * tasks, the dashboard and broadcasts. Another feature's console page is in that feature's route file.
 */
import type { FastifyPluginAsync } from 'fastify';
import type {
  AdminBroadcast,
  AdminSession,
  AdminTask,
  BroadcastButton,
  BroadcastCancelled,
  BroadcastQueued,
  BroadcastSegment,
  CheatSignal,
  Dashboard,
  DailyStatsRow,
  FreezeResult,
  LedgerEntry,
  Page,
  PlayerDetail,
  PlayerSummary,
  ReferralEntry,
} from '../../engine/wire/admin-types.ts';
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
import { broadcastBody, broadcastQueuedSchema } from './bot.ts';
import { consoleScope, type ConsoleContext } from './route-context.ts';
import { arrayOf, consoleErrorResponses, enumOf, itemsOf, keysetPageOf, objectOf, recordOf, variantsOf } from './schemas.ts';
import { bigintCursor, emptyBody, integerId, msIdCursor, obj, rowId, telegramUserId } from './validation.ts';

const sessionSchema = objectOf<AdminSession>()({ adminId: 'integer', name: 'string', csrfToken: 'string', expiresAtMs: 'integer' });
const signInAnswer = { 200: sessionSchema, ...consoleErrorResponses };

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
  app.post<{ Body: Record<string, string | number>; Reply: AdminSession }>('/login/widget', { schema: { hide: true, body: widgetBody, response: signInAnswer } }, async (request, reply) => {
    const check = verifyLoginWidget(request.body, botToken, ctx.clock.now(), maxAgeS);
    if (!check.ok) throw check.refusal;
    const { token, identity } = await signIn(request, check.userId, check.name);
    return reply.header('set-cookie', sessionCookieHeader(request, token, ctx.config.ADMIN_SESSION_TTL_S, ctx.config.PUBLIC_URL)).send(sessionOf(identity));
  });

  app.post<{ Body: { initData: string }; Reply: AdminSession }>(
    '/login/init-data',
    { schema: { hide: true, body: obj({ initData: { type: 'string', maxLength: 8192 } }, ['initData']), response: signInAnswer } },
    async (request, reply) => {
      const { initData } = request.body;
      if (initData.trim() === '') throw refuse('initDataRequired', { field: 'initData' });
      const check = verifyInitData(initData, secret, ctx.clock.now(), maxAgeS);
      if (!check.ok) throw refuse(check.code, { field: 'initData' });
      const u = check.data.user;
      const { token, identity } = await signIn(request, u.id, u.username ? `@${u.username}` : u.first_name);
      return reply.header('set-cookie', sessionCookieHeader(request, token, ctx.config.ADMIN_SESSION_TTL_S, ctx.config.PUBLIC_URL)).send(sessionOf(identity));
    },
  );

  app.get<{ Reply: AdminSession }>('/session', { onRequest: ctx.guard, schema: { hide: true, response: signInAnswer } }, async (request) => sessionOf(adminOf(request)));

  app.post<{ Reply: { ok: boolean } }>(
    '/logout',
    { onRequest: ctx.guard, schema: { hide: true, body: emptyBody, response: { 200: objectOf<{ ok: boolean }>()({ ok: 'boolean' }), ...consoleErrorResponses } } },
    async (request, reply) => {
      await deleteSession(ctx.db, request);
      await recordAudit(ctx.db, { actor: actorOf(request), action: 'session.sign-out', target: `admin:${adminOf(request).adminId}`, nowMs: ctx.clock.now() });
      return reply.header('set-cookie', clearedCookieHeader(request, ctx.config.PUBLIC_URL)).send({ ok: true });
    },
  );
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
/** The task form as sent: parseTaskInput checks every field, so any may be missing or wrong here. */
type TaskBody = Record<string, unknown>;

// broadcasts.id is a BIGSERIAL, answered as a number (exact up to 2^53−1).
const broadcastParam = obj({ id: rowId }, ['id']);
/** A segment's fields, typed (days a number, never "30"); which kind takes which field, and the ranges, are parseSegment's. */
const segmentBody = obj(
  {
    kind: { type: 'string', enum: ['all', 'language', 'active', 'test'] },
    languageCode: { type: 'string', maxLength: 16 },
    days: { type: 'integer' },
    userIds: { type: 'array', maxItems: 1_000, items: { type: 'string', maxLength: 32 } },
  },
  ['kind'],
);

const playerSummaryFields = {
  id: 'string',
  refcode: 'string',
  teleUsername: 'string',
  totalEarn: 'string',
  totalMoney: 'string',
  totalClick: 'integer',
  inviteCnt: 'integer',
  createdAtMs: 'integer',
  lastActiveMs: 'integer?',
  frozenAt: 'string?',
  languageCode: 'string?',
} as const;
const playerSummarySchema = objectOf<PlayerSummary>()(playerSummaryFields);
const playerDetailSchema = objectOf<PlayerDetail>()({
  ...playerSummaryFields,
  refLevel: 'integer',
  referredBy: 'string?',
  teleAge: 'integer',
  twUsername: 'string?',
  twAge: 'integer',
  isPremium: 'boolean',
  isClaimedWelcome: 'boolean',
  preWlComing: 'integer',
  totalRef: 'string',
  totalMoneyRef: 'string',
  energyLevel: 'integer',
  fingerLevel: 'integer',
});
const ledgerEntrySchema = objectOf<LedgerEntry>()({ id: 'string', currency: enumOf(['DOLLAR', 'MONEY']), amount: 'string', kind: 'string', reference: 'string?', createdAtMs: 'integer' });
const referralEntrySchema = objectOf<ReferralEntry>()({
  friendId: 'string',
  teleUsername: 'string',
  status: enumOf(['pending', 'credited']),
  bonus: 'string',
  totalEarn: 'string',
  createdAtMs: 'integer',
});
const cheatSignalSchema = objectOf<CheatSignal>()({
  userId: 'string',
  teleUsername: 'string',
  clippedBatches: 'integer',
  refusedTaps: 'integer',
  acceptedTaps: 'integer',
  lastAtMs: 'integer',
  frozen: 'boolean',
});
const adminTaskSchema = objectOf<AdminTask>()({
  type: 'string',
  handleType: 'string?',
  title: 'string',
  titles: recordOf('string', 'the title by language'),
  image: 'string',
  desc: 'string',
  link: 'string',
  reward: 'string',
  isDaily: 'boolean',
  needsCaptcha: 'boolean',
  active: 'boolean',
  id: 'integer',
  sortOrder: 'integer',
});
const dashboardSchema = objectOf<Dashboard>()({
  days: arrayOf(
    objectOf<DailyStatsRow>()({
      day: 'string',
      totalPlayers: 'integer',
      newPlayers: 'integer',
      activePlayers: 'integer',
      taps: 'integer',
      adsWatched: 'integer',
      invited: 'integer',
      bonusPaid: 'integer',
    }),
  ),
  funnel: objectOf<Dashboard['funnel']>()({ invited: 'integer', reached100: 'integer', bonusPaid: 'integer' }),
  updatedAtMs: 'integer?',
});
const broadcastSchema = objectOf<AdminBroadcast>()({
  sent: 'integer',
  failed: 'integer',
  blocked: 'integer',
  uncertain: 'integer',
  cancelled: 'integer',
  pending: 'integer',
  id: 'integer',
  message: 'string',
  btns: arrayOf(objectOf<BroadcastButton>()({ btnType: 'string', btnText: 'string', btnLink: 'string' })),
  segment: variantsOf<BroadcastSegment>()({ kind: enumOf(['all', 'language', 'active', 'test']), languageCode: 'string', days: 'integer', userIds: arrayOf('string') }),
  total: 'integer',
  createdAtMs: 'integer',
  finishedAtMs: 'integer?',
  cancelledAtMs: 'integer?',
});

const answers = <T>(schema: T) => ({ 200: schema, ...consoleErrorResponses });

/** Players, cheat signals, tasks, the dashboard and broadcasts (docs/admin.md), in the console's scope. */
export const consoleRoutes = consoleScope(async (app, ctx) => {
  // Without a term (or a blank one): the players who joined last (docs/admin.md "Players").
  app.get<{ Querystring: { q?: string }; Reply: { items: PlayerSummary[] } }>(
    '/players',
    { schema: { querystring: obj({ q: { type: 'string', maxLength: 64 } }), response: answers(itemsOf(playerSummarySchema)) } },
    async (request) => {
      const term = request.query.q?.trim() ?? '';
      return { items: term === '' ? await recentPlayers(ctx.reads) : await searchPlayers(ctx.reads, term) };
    },
  );
  app.get<{ Params: { id: number }; Reply: PlayerDetail }>('/players/:id', { schema: { params: playerParam, response: answers(playerDetailSchema) } }, async (request) =>
    playerDetail(ctx.reads, request.params.id),
  );
  app.get<{ Params: { id: number }; Querystring: { before?: string }; Reply: Page<LedgerEntry> }>(
    '/players/:id/ledger',
    { schema: { params: playerParam, querystring: obj({ before: bigintCursor }), response: answers(keysetPageOf(ledgerEntrySchema)) } },
    async (request) => playerLedger(ctx.reads, request.params.id, request.query.before),
  );
  app.get<{ Params: { id: number }; Querystring: { before?: string }; Reply: Page<ReferralEntry> }>(
    '/players/:id/referrals',
    { schema: { params: playerParam, querystring: obj({ before: msIdCursor }), response: answers(keysetPageOf(referralEntrySchema)) } },
    async (request) => playerReferrals(ctx.reads, request.params.id, request.query.before),
  );
  app.post<{ Params: { id: number }; Body: { frozen: boolean; reason?: string }; Reply: FreezeResult }>(
    '/players/:id/freeze',
    {
      schema: {
        params: playerParam,
        body: obj({ frozen: { type: 'boolean' }, reason: { type: 'string', maxLength: 500 } }, ['frozen']),
        response: answers(objectOf<FreezeResult>()({ id: 'string', frozenAt: 'string?' })),
      },
    },
    async (request) => {
      const { id } = request.params;
      const { frozen, reason } = request.body;
      const frozenAt = await setFrozen(ctx.db, actorOf(request), id, frozen, reason ?? '', ctx.clock.now());
      ctx.frozen.set(id, frozen);
      return { id: String(id), frozenAt };
    },
  );
  app.get<{ Querystring: { sort?: 'clipped' | 'refused' }; Reply: { items: CheatSignal[] } }>(
    '/cheats',
    { schema: { querystring: obj({ sort: { type: 'string', enum: ['clipped', 'refused'] } }), response: answers(itemsOf(cheatSignalSchema)) } },
    async (request) => ({ items: await cheatSignals(ctx.reads, request.query.sort ?? 'clipped') }),
  );

  app.get<{ Reply: { items: AdminTask[] } }>('/tasks', { schema: { response: answers(itemsOf(adminTaskSchema)) } }, async () => ({ items: await listAdminTasks(ctx.db) }));
  app.post<{ Body: TaskBody; Reply: AdminTask }>('/tasks', { schema: { body: taskBody, response: answers(adminTaskSchema) } }, async (request) =>
    createTask(ctx.db, actorOf(request), parseTaskInput(request.body), ctx.clock.now()),
  );
  app.put<{ Params: { id: number }; Body: TaskBody; Reply: AdminTask }>('/tasks/:id', { schema: { params: taskParam, body: taskBody, response: answers(adminTaskSchema) } }, async (request) =>
    updateTask(ctx.db, actorOf(request), request.params.id, parseTaskInput(request.body), ctx.clock.now()),
  );
  app.post<{ Body: { ids: number[] }; Reply: { items: AdminTask[] } }>(
    '/tasks/reorder',
    { schema: { body: obj({ ids: { type: 'array', maxItems: 1000, items: integerId } }, ['ids']), response: answers(itemsOf(adminTaskSchema)) } },
    async (request) => ({ items: await reorderTasks(ctx.db, actorOf(request), request.body.ids, ctx.clock.now()) }),
  );

  app.get<{ Reply: Dashboard }>('/dashboard', { schema: { response: answers(dashboardSchema) } }, async () => readDashboard(ctx.reads));

  app.get<{ Reply: { items: AdminBroadcast[] } }>('/broadcasts', { schema: { response: answers(itemsOf(broadcastSchema)) } }, async () => ({ items: await recentBroadcasts(ctx.db) }));
  app.get<{ Params: { id: number }; Reply: AdminBroadcast }>('/broadcasts/:id', { schema: { params: broadcastParam, response: answers(broadcastSchema) } }, async (request) =>
    adminBroadcast(ctx.db, request.params.id),
  );
  // The message, buttons and segment as sent: parseBroadcast and parseSegment check them.
  app.post<{ Body: { message?: unknown; btns?: unknown; segment?: unknown }; Reply: BroadcastQueued }>(
    '/broadcasts',
    {
      schema: {
        body: obj({ ...broadcastBody.properties, segment: segmentBody }),
        // The 200 the OpenAPI document has always listed for this route stays listed, beside the 202 it answers.
        response: { 200: { description: 'Default Response' }, 202: broadcastQueuedSchema, ...consoleErrorResponses },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const parsed = parseBroadcast({ message: b.message, btns: b.btns });
      if (!parsed.ok) throw parsed.refusal;
      const segment = parseSegment(b.segment);
      const queued = await enqueueSegmentBroadcast(ctx.db, actorOf(request), parsed.broadcast, segment, ctx.clock.now());
      return reply.status(202).send(queued);
    },
  );
  // No body: the console scope's schema default (consoleScope) refuses any field.
  app.post<{ Params: { id: number }; Reply: BroadcastCancelled }>(
    '/broadcasts/:id/cancel',
    { schema: { params: broadcastParam, response: answers(objectOf<BroadcastCancelled>()({ id: 'integer', cancelled: 'integer' })) } },
    async (request) => {
      const { id } = request.params;
      const cancelled = await cancelBroadcast(ctx.db, actorOf(request), id, ctx.clock.now());
      return { id, cancelled };
    },
  );
});
