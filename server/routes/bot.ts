/**
 * The bot's HTTP side: POST /public/send-telemss queues a broadcast (x-api-key),
 * GET /public/send-telemss/:broadcastId reads its progress, and POST /public/telegram-webhook
 * takes updates when WEBHOOK_URL is set (Telegram's secret_token header, constant-time).
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Bot } from 'grammy';
import type { BroadcastButton, BroadcastQueued } from '../../engine/wire/admin-types.ts';
import { createGameBot } from '../background/exports.ts';
import { broadcastProgress, enqueueBroadcast, parseBroadcast, type BroadcastProgress } from '../bot/exports.ts';
import { refuse } from '../core/errors.ts';
import type { RouteContext } from './route-context.ts';
import { webhookSecret } from '../bot/exports.ts';
import { secretMatches } from '../core/secret-compare.ts';
import { apiKeyHeader, errorResponses, objectOf, requireApiKey } from './schemas.ts';
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

/** A queued broadcast: this API's answer and the console's (server/routes/console.ts). */
export const broadcastQueuedSchema = objectOf<BroadcastQueued>()({ broadcastId: 'integer', total: 'integer' });

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

/** What POST /public/send-telemss takes: parseBroadcast checks it (the schema types it). */
interface BroadcastPayload {
  message?: string;
  btns?: Partial<BroadcastButton>[];
}
/** The webhook's acknowledgement: `duplicate` when the update was already handled (Telegram redelivered it). */
interface WebhookAck {
  ok: boolean;
  duplicate?: boolean;
}

export const botRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  const checkKey = (request: FastifyRequest) => requireApiKey(ctx.config.BROADCAST_API_KEY, 'broadcastsUnconfigured', request);

  app.post<{ Body: BroadcastPayload; Reply: BroadcastQueued }>(
    '/public/send-telemss',
    {
      schema: {
        summary: 'Queues a message to every user (≤ 30/s, resumable); answers its id',
        tags: ['bot', 'public'],
        headers: apiKeyHeader,
        querystring: noQuery,
        body: broadcastBody,
        response: { 202: broadcastQueuedSchema, ...errorResponses },
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

  app.get<{ Params: { broadcastId: number }; Reply: BroadcastProgress }>(
    '/public/send-telemss/:broadcastId',
    {
      schema: {
        summary: 'Progress of a broadcast: sent, failed, uncertain, remaining',
        tags: ['bot', 'public'],
        headers: apiKeyHeader,
        // The maximum keeps the id inside BIGINT (and exact in JS), so a huge one is a 400, not a 500.
        params: obj({ broadcastId: rowId }, ['broadcastId']),
        response: { 200: progressSchema, ...errorResponses },
      },
    },
    async (request) => {
      checkKey(request);
      const { broadcastId } = request.params;
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
  // The body is Telegram's Update, whatever fields it carries: only update_id is checked here, grammY reads the rest.
  app.post<{ Body: { update_id?: unknown } | undefined; Reply: WebhookAck }>(
    '/public/telegram-webhook',
    { schema: { hide: true, response: { 200: objectOf<WebhookAck>()({ ok: 'boolean', duplicate: 'boolean' }) } } },
    async (request, reply) => {
      if (!secretMatches(request.headers['x-telegram-bot-api-secret-token'], secret)) throw refuse('wrongWebhookSecret');
      const update = request.body;
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
    },
  );
};
