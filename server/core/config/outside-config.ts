/**
 * Core's part of the outside services' config (docs/outside-services.md): the one timeout of every
 * outside call and the Bot API's root, which several features use, and the jobs' switches. Each
 * service's own URLs and credentials live in the feature that calls it (server/tasks/settings.ts,
 * server/x-account/settings.ts, server/bot/settings.ts). Defaults derived from other keys are
 * computed by helpers, not here.
 */
import { z } from 'zod';
import { envFlag } from './env-flag.ts';
import { positiveMs } from './kinds.ts';

export const outsideConfigShape = {
  /** Timeout of every outside call (siteverify, X, exchanges), ms. */
  OUTSIDE_TIMEOUT_MS: positiveMs(5_000),
  // Telegram Bot API (the bot, broadcasts, channel checks, invites, the Stars shop)
  BOT_API_ROOT: z.url().default('https://api.telegram.org'),
  // Jobs
  /** GET /public/test-cron runs the jobs once only when this is on. */
  ENABLE_TEST_CRON: envFlag.default(false),
  /** An off switch for the scheduled jobs in this process; each job runs once across processes anyway. */
  JOBS_ENABLED: envFlag.default(true),
};

export const publicUrl = (c: { PUBLIC_URL?: string | undefined; PORT: number }): string => (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, '');
