import type { FastifyPluginAsync } from 'fastify';
import type { Task, TaskType } from '../../engine/wire/api-types.ts';
import { messages } from '../../engine/wire/messages.ts';
import { playerOf, statusOf } from '../players/exports.ts';
import { channelBoostsOf, claimTask, listTasks, loadTask, recordChannelBoosts, taskTypeValues, verifyOutside } from '../tasks/exports.ts';
import { refuse } from '../core/errors.ts';
import { int, obj } from './validation.ts';
import type { RouteContext } from './route-context.ts';
import { decimalSchema, errorResponses, playerRoute, taskSchema, userStatusSchema } from './schemas.ts';

const payload = {
  taskId: int(1, 2 ** 31 - 1, 'the task id'),
  captchaToken: { type: 'string', maxLength: 4_096 },
  inputValue: { type: 'string', maxLength: 128 },
} as const;

type Payload = { taskId?: number; captchaToken?: string; inputValue?: string };

/** Tasks and achievements: the list, the boost/exchange check, and the claim. */
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
};
