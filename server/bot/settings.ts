/**
 * The bot and broadcasts (docs/outside-services.md, docs/configuration.md), composed into the
 * server's one schema by server/background/settings.ts; every key is the env variable's own name.
 * Defaults derived from other keys (PUBLIC_URL, BOT_TOKEN) are computed by the helpers below.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { publicUrl } from '../core/config/outside-config.ts';
import { positiveMs, text, urlOrEmpty } from '../core/config/kinds.ts';
import type { CoreConfig } from '../core/config/config.ts';

export const botSettings = {
  /** The mini-app URL the bot's button opens; empty = PUBLIC_URL + /app. */
  MINI_APP_URL: urlOrEmpty,
  /** When set, the bot takes updates by webhook at this URL instead of long polling. */
  WEBHOOK_URL: urlOrEmpty,
  /** Telegram's secret_token for the webhook; empty = derived from BOT_TOKEN. */
  WEBHOOK_SECRET: z.union([z.literal(''), z.string().regex(/^[A-Za-z0-9_-]{1,256}$/, 'must be 1–256 of A-Z a-z 0-9 _ -')]).default(''),
  /** x-api-key of POST /public/send-telemss; empty closes the endpoint. */
  BROADCAST_API_KEY: text,
  BROADCAST_RATE_PER_S: z.coerce.number().positive().max(1_000).default(30),
  BROADCAST_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
  /** Must exceed the 30 s send timeout, or a slow send could be taken for a dead worker's. */
  BROADCAST_LEASE_MS: z.coerce.number().int().min(60_000).default(120_000),
  BROADCAST_IDLE_POLL_MS: positiveMs(1_000),
};

/** The keys the bot reads: its own and the core's it needs. */
export type BotConfig = z.output<z.ZodObject<typeof botSettings>> & Pick<CoreConfig, 'PUBLIC_URL' | 'PORT' | 'BOT_TOKEN'>;

export const miniAppUrl = (c: Pick<BotConfig, 'MINI_APP_URL' | 'PUBLIC_URL' | 'PORT'>): string => c.MINI_APP_URL || `${publicUrl(c)}/app`;

/** The webhook secret_token: configured, or a digest of the bot token (the same in every process). */
export const webhookSecret = (c: Pick<BotConfig, 'WEBHOOK_SECRET' | 'BOT_TOKEN'>): string =>
  c.WEBHOOK_SECRET || (c.BOT_TOKEN ? createHash('sha256').update(`webhook:${c.BOT_TOKEN}`).digest('hex') : '');
