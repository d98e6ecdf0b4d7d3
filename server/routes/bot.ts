/**
 * The bot's HTTP side: POST /public/send-telemss queues a broadcast (x-api-key),
 * GET /public/send-telemss/:broadcastId reads its progress, and POST /public/telegram-webhook
 * takes updates when WEBHOOK_URL is set (Telegram's secret_token header, constant-time).
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Bot } from 'grammy';
import { createGameBot } from '../background/exports.ts';
import { broadcastProgress, enqueueBroadcast, parseBroadcast, type BroadcastProgress } from '../bot/exports.ts';
import { refuse } from '../core/errors.ts';
import type { RouteContext } from './route-context.ts';
import { webhookSecret } from '../core/config/outside-config.ts';
import { secretMatches } from '../core/secret-compare.ts';
import { apiKeyHeader, objectOf, requireApiKey } from './schemas.ts';
import { noQuery, obj, rowId } from './validation.ts';

/** A broadcast's message and buttons (POST /public/send-telemss and the console), typed; their rules are parseBroadcast's. */
export const broadcastBody = obj({
  message: { type: 'string', maxLength: 16_384 },
  btns: {
    type: 'array',
    maxItems: 100,
    items: obj({ btnType: { type: 'string', maxLength: 16 }, btnText: { type: 'string', maxLength: 1_000 }, btnLink: { type: 'string', maxLength: 2_048 } }),
  },
});

const progressSchema = objectOf<BroadcastProgress>()({
  id: 'integer',
  total: 'integer',
  sent: 'integer',
  failed: 'integer',
  uncertain: 'integer',
  remaining: 'integer',
  createdAtMs: 'integer',
  finishedAtMs: 'integer?',
});

export const botRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  const checkKey = (request: FastifyRequest) => requireApiKey(ctx.config.BROADCAST_API_KEY, 'broadcastsUnconfigured', request);

  app.post(
    '/public/send-telemss',
    {
      schema: {
        summary: 'Queues a message to every user (≤ 30/s, resumable); answers its id',
        tags: ['bot', 'public'],
        headers: apiKeyHeader,
        querystring: noQuery,
        body: broadcastBody,
        response: { 202: { type: 'object', properties: { broadcastId: { type: 'integer' }, total: { type: 'integer' } } } },
      },
    },
    async (request, reply) => {
      checkKey(request);
      const parsed = parseBroadcast(request.body);
      if (!parsed.ok) throw parsed.refusal;
      const queued = await enqueueBroadcast(ctx.db, parsed.broadcast, ctx.clock.now());
      return reply.status(202).send(queued);
    },
  );

  app.get(
    '/public/send-telemss/:broadcastId',
    {
      schema: {
        summary: 'Progress of a broadcast: sent, failed, uncertain, remaining',
        tags: ['bot', 'public'],
        headers: apiKeyHeader,
        // The maximum keeps the id inside BIGINT (and exact in JS), so a huge one is a 400, not a 500.
        params: obj({ broadcastId: rowId }, ['broadcastId']),
        response: { 200: progressSchema },
      },
    },
    async (request) => {
      checkKey(request);
      const { broadcastId } = request.params as { broadcastId: number };
      const progress = await broadcastProgress(ctx.db, broadcastId);
      if (progress === null) throw refuse('broadcastNotFound', { field: 'broadcastId', values: { id: broadcastId } });
      return progress;
    },
  );

  const token = ctx.config.BOT_TOKEN;
  if (!ctx.config.WEBHOOK_URL || token === undefined) return;
  const secret = webhookSecret(ctx.config);
  let bot: Bot | undefined;
  let ready: Promise<void> | undefined;
  // Telegram redelivers an update it did not see acknowledged: the recent update_ids of this
  // process are remembered so a redelivery is acknowledged without answering twice.
  const recent = new Set<number>();
  const remember = (id: number): boolean => {
    if (recent.has(id)) return false;
    recent.add(id);
    if (recent.size > 10_000) recent.delete(recent.values().next().value as number);
    return true;
  };
  app.post('/public/telegram-webhook', { schema: { hide: true } }, async (request, reply) => {
    if (!secretMatches(request.headers['x-telegram-bot-api-secret-token'], secret)) throw refuse('wrongWebhookSecret');
    const update = request.body as { update_id?: unknown } | undefined;
    if (!update || typeof update.update_id !== 'number') throw refuse('notATelegramUpdate', { field: 'update_id' });
    bot ??= createGameBot(ctx, token);
    ready ??= bot.init().catch((err: unknown) => {
      ready = undefined;
      throw err;
    });
    await ready;
    if (!remember(update.update_id)) return reply.status(200).send({ ok: true, duplicate: true });
    try {
      await bot.handleUpdate(update as Parameters<Bot['handleUpdate']>[0]);
    } catch (err) {
      // Not handled: forget it, so Telegram's retry is handled.
      recent.delete(update.update_id);
      throw err;
    }
    return reply.status(200).send({ ok: true });
  });
};
