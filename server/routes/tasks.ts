import type { FastifyPluginAsync } from 'fastify';
import type { Task, TaskType } from '../../engine/wire/api-types.ts';
import type { AdsReward } from '../tasks/exports.ts';
import { messages } from '../../engine/wire/messages.ts';
import { playerOf, statusOf } from '../players/exports.ts';
import {
  channelBoostsOf,
  claimTask,
  claimWithToken,
  decodeEncryptData,
  listTasks,
  loadAdsTask,
  loadTask,
  readAdsToken,
  recordChannelBoosts,
  rewardFromCallback,
  startAdWatch,
  taskTypeValues,
  verifyOutside,
} from '../tasks/exports.ts';
import { refuse } from '../core/errors.ts';
import { secretMatches } from '../core/secret-compare.ts';
import { int, obj } from './validation.ts';
import type { RouteContext } from './route-context.ts';
import { decimalSchema, errorResponses, objectOf, playerRoute, playerSecurity, taskSchema, userStatusSchema } from './schemas.ts';

const payload = {
  taskId: int(1, 2 ** 31 - 1, 'the task id'),
  captchaToken: { type: 'string', maxLength: 4_096 },
  inputValue: { type: 'string', maxLength: 128 },
} as const;

type Payload = { taskId?: number; captchaToken?: string; inputValue?: string };

const authed = { security: playerSecurity, tags: ['ads'] };
const adsRewardSchema = objectOf<AdsReward>()({ credited: 'string', numberOfDone: 'integer', hasDone: 'boolean' });
/** Adsgram's callback answer: what was credited, and why nothing was when so. */
interface AdsgramAnswer {
  credited: string;
  reason?: string;
}

/**
 * Tasks and achievements: the list, the boost/exchange check, and the claim. Ads (§7):
 * GET /start-watch-ads, POST /claim-ads-reward, and Adsgram's server callback
 * GET /public/adsgram/reward?userid=&key=. See server/tasks/ads-rewards.ts for the dedupe rule.
 */
export const taskRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  const route = playerRoute(ctx);

  app.get<{ Querystring: { type: TaskType } }>(
    '/tasks',
    route('tasks', 'Tasks of a type with the player’s progress (DAILY_TASK = social + ads, INVITE_TASK = invite)', {
      querystring: obj({ type: { type: 'string', enum: [...taskTypeValues] } }, ['type']),
      response: { 200: { type: 'array', items: taskSchema }, ...errorResponses },
    }),
    async (request): Promise<Task[]> => listTasks(ctx.db, playerOf(request).id, request.query.type, ctx.clock.now()),
  );

  app.post<{ Body: Payload }>(
    '/check-task',
    route('tasks', 'Checks a task with its outside service: the boost count (BOOST, task 7) or the exchange account (CHECK_ONUS, CHECK_BINGX)', {
      body: obj(payload, ['taskId']),
      response: { 200: { type: 'object', properties: { boostChannelCnt: { type: 'integer' } } }, ...errorResponses },
    }),
    async (request) => {
      const userId = playerOf(request).id;
      const task = await loadTask(ctx.db, request.body.taskId!);
      if (task.handle_type === 'BOOST') {
        if (ctx.services === undefined) throw refuse('taskUnverifiable');
        const boosts = await ctx.services.countChannelBoosts(String(userId));
        await recordChannelBoosts(ctx.db, userId, boosts);
        return { boostChannelCnt: boosts };
      }
      if (task.handle_type === 'CHECK_ONUS' || task.handle_type === 'CHECK_BINGX') {
        await verifyOutside({ ...task, needs_captcha: false }, userId, { ...(request.body.inputValue !== undefined ? { inputValue: request.body.inputValue } : {}) }, ctx.services);
      }
      return { boostChannelCnt: await channelBoostsOf(ctx.db, userId) };
    },
  );

  app.post<{ Querystring: { task_id: number }; Body: Payload }>(
    '/claim-task',
    route('tasks', 'Claims a task’s reward when its rule is met', {
      querystring: obj({ task_id: int(1, 2 ** 31 - 1, 'the task id') }, ['task_id']),
      body: obj(payload),
      response: {
        200: { type: 'object', properties: { message: { type: 'string' }, reward: decimalSchema, task: taskSchema, status: userStatusSchema } },
        ...errorResponses,
      },
    }),
    async (request) => {
      const player = playerOf(request);
      const taskId = request.query.task_id;
      if (request.body.taskId !== undefined && request.body.taskId !== taskId) throw refuse('taskIdMismatch', { field: 'taskId' });
      const task = await loadTask(ctx.db, taskId);
      const input = {
        ...(request.body.captchaToken !== undefined ? { captchaToken: request.body.captchaToken } : {}),
        ...(request.body.inputValue !== undefined ? { inputValue: request.body.inputValue } : {}),
        remoteIp: request.ip,
      };
      const evidence = await verifyOutside(task, player.id, input, ctx.services);
      const now = ctx.clock.now();
      const r = await claimTask(ctx.db, task, player.id, player.initData, input, evidence, now);
      const message = task.type === 'ACHIVEMENT' ? messages.achievementClaimSuccess : messages.taskClaimSuccess;
      return { message, reward: r.reward, task: r.task, status: statusOf(r.row, now) };
    },
  );

  const secret = ctx.config.ADS_TOKEN_SECRET;
  // The player's refusal names no setting (adsUnconfigured); the operator reads it here, once.
  if (!secret) app.log.warn('ADS_TOKEN_SECRET is empty: /start-watch-ads and /claim-ads-reward refuse adsUnconfigured (docs/configuration.md)');
  const requireSecret = () => {
    if (!secret) throw refuse('adsUnconfigured');
  };
  const adsTask = async () => {
    const task = await loadAdsTask(ctx.db);
    if (task === null) throw refuse('noAdsTask');
    return task;
  };

  app.get('/start-watch-ads', { onRequest: ctx.authenticate, schema: { summary: 'A signed, single-use ad-watch token (text)', ...authed } }, async (request, reply) => {
    requireSecret();
    const token = await startAdWatch(ctx.db, secret, ctx.config.ADS_TOKEN_TTL_S * 1000, playerOf(request).id, await adsTask(), ctx.clock.now());
    // §7: "JSON or text; the mini-app treats it as a string".
    return reply.type('text/plain; charset=utf-8').send(token);
  });

  app.post<{ Body: { taskId: number; encryptData: string }; Reply: AdsReward }>(
    '/claim-ads-reward',
    {
      onRequest: ctx.authenticate,
      schema: {
        summary: 'Credits one ad view of the ADS task (10 a day)',
        ...authed,
        body: obj({ taskId: int(1, 2_147_483_647), encryptData: { type: 'string', minLength: 1, maxLength: 512 } }, ['taskId', 'encryptData']),
        response: { 200: adsRewardSchema, ...errorResponses },
      },
    },
    async (request) => {
      requireSecret();
      const { taskId, encryptData } = request.body;
      const player = playerOf(request);
      const task = await loadTask(ctx.db, taskId, 'taskId');
      if (task.type !== 'ADS') throw refuse('notAnAdsTask', { field: 'taskId', values: { taskId } });
      const token = decodeEncryptData(encryptData);
      if (token === null) throw refuse('adTokenMalformed', { field: 'encryptData' });
      const read = readAdsToken(secret, token, ctx.clock.now());
      if (!read.ok) throw refuse(read.reason === 'expired' ? 'adTokenExpired' : 'adTokenInvalid', { field: 'encryptData' });
      if (read.claims.userId !== String(player.id)) throw refuse('adTokenForeign', { field: 'encryptData' });
      return claimWithToken(ctx.db, player.id, task, read.claims.nonce, ctx.clock.now());
    },
  );

  app.get<{ Querystring: { userid: string; key?: string }; Reply: AdsgramAnswer }>(
    '/public/adsgram/reward',
    {
      schema: {
        summary: "Adsgram's server-to-server reward callback (needs the secret key)",
        tags: ['ads', 'public'],
        querystring: { type: 'object', properties: { userid: { type: 'string', pattern: '^[0-9]{1,19}$' }, key: { type: 'string', maxLength: 512 } }, required: ['userid'] },
        response: { 200: objectOf<AdsgramAnswer>()({ credited: 'string', reason: 'string' }), ...errorResponses },
      },
    },
    async (request) => {
      const { userid, key } = request.query;
      if (!ctx.config.ADSGRAM_CALLBACK_KEY) throw refuse('adsgramUnconfigured');
      if (!secretMatches(key, ctx.config.ADSGRAM_CALLBACK_KEY)) throw refuse('adsgramWrongKey', { field: 'key' });
      const userId = Number(userid);
      if (!Number.isSafeInteger(userId)) throw refuse('adsgramBadUserId', { field: 'userid' });
      // Always 200 once authenticated, even when nothing is credited, so Adsgram stops retrying.
      return rewardFromCallback(ctx.db, userId, await adsTask(), ctx.clock.now());
    },
  );
};
