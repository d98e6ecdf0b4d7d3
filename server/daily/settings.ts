/**
 * The daily loop's settings (docs/rules.md §15, docs/configuration.md). Composed into the one config
 * schema by server/background/settings.ts; every key is the env variable's own name.
 */
import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { economy } from '../../engine/rules/economy.ts';

export const dailySettings = {
  /**
   * The secret a day's combo and cipher word are drawn from when no operator set them (HMAC of the
   * day), so they cannot be predicted from the date. Empty = derived from BOT_TOKEN; set it so that
   * a new bot token does not change the days already drawn.
   */
  DAILY_SECRET: z.union([z.literal(''), z.string().min(16, 'must be at least 16 characters')]).default(''),
  /** How often the reminders job looks for players whose reminder is due, ms. */
  REMINDERS_CHECK_MS: z.coerce.number().int().min(1_000).default(60_000),
  /**
   * How long a player must have been away before the bot reminds them, ms (docs/rules.md §15.4):
   * an hour, the spec's, unless set; a staging server may shorten it to see a reminder sent.
   */
  REMINDERS_AWAY_MS: z.coerce
    .number({ message: 'must be a number of milliseconds' })
    .int('must be a whole number of milliseconds')
    .min(60_000, 'must be at least 60000 (a minute)')
    .max(7 * 86_400_000, 'must be at most 604800000 (a week)')
    .default(economy.reminderAwayMs),
  /** The most reminders one run of the job decides (the rest wait for the next run). */
  REMINDERS_BATCH: z.coerce.number().int().min(1).max(100_000).default(2_000),
};

/** The key a day's draws are made with: DAILY_SECRET, else one derived from the bot token. */
export const dailySecretOf = (c: { DAILY_SECRET: string; BOT_TOKEN?: string | undefined }): Buffer =>
  c.DAILY_SECRET !== ''
    ? Buffer.from(c.DAILY_SECRET, 'utf8')
    : createHmac('sha256', 'money-daily-secret').update(c.BOT_TOKEN ?? 'development only: no BOT_TOKEN').digest();
