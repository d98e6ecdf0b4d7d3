/**
 * Config of the outside services (docs/outside-services.md), spread into the server's one schema in config.ts.
 * Every credential defaults to empty so the app starts without it; a service whose credential is
 * empty refuses with a clear error (fail closed). Defaults derived from other keys (PUBLIC_URL,
 * CHANNEL_URL, BOT_TOKEN) are computed by the helpers below, not here.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { envFlag } from './env-flag.ts';
import { apiPrefix } from '../../../engine/wire/api-types.ts';

const text = z.string().trim().default('');
const ms = (def: number) => z.coerce.number().int().positive().default(def);

const urlOrEmpty = z.union([z.literal(''), z.url({ protocol: /^https?$/ })]).default('');

export const outsideConfigShape = {
  /** Timeout of every outside call (siteverify, X, exchanges), ms. */
  OUTSIDE_TIMEOUT_MS: ms(5_000),
  // Cloudflare Turnstile
  TURNSTILE_SECRET: text,
  TURNSTILE_VERIFY_URL: z.url().default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  /** Comma-separated hostnames siteverify may report; empty = the host of PUBLIC_URL. */
  TURNSTILE_HOSTNAMES: text,
  // Ads (Adsgram)
  /** HMAC secret of the /start-watch-ads token; empty turns ad rewards off. */
  ADS_TOKEN_SECRET: text,
  ADS_TOKEN_TTL_S: z.coerce.number().int().min(30).max(3_600).default(300),
  /** The `key` query value Adsgram's reward callback must carry; empty closes the callback. */
  ADSGRAM_CALLBACK_KEY: text,
  // X (Twitter) OAuth 2
  X_CLIENT_ID: text,
  X_CLIENT_SECRET: text,
  X_AUTHORIZE_URL: z.url().default('https://x.com/i/oauth2/authorize'),
  X_TOKEN_URL: z.url().default('https://api.x.com/2/oauth2/token'),
  X_USERS_ME_URL: z.url().default('https://api.x.com/2/users/me'),
  /** Our callback registered with X; empty = PUBLIC_URL + apiPrefix + /callback/twitter. */
  X_CALLBACK_URL: urlOrEmpty,
  X_SCOPES: z.string().trim().default('users.read tweet.read'),
  /** Comma-separated URLs redirect_to may start with (origin + path prefix); empty = PUBLIC_URL's origin. */
  X_REDIRECT_ALLOWLIST: text,
  // Partner exchanges
  ONUS_CHECK_URL: urlOrEmpty,
  ONUS_API_KEY: text,
  BINGX_CHECK_URL: urlOrEmpty,
  BINGX_API_KEY: text,
  // Telegram Bot API, the bot and broadcasts
  BOT_API_ROOT: z.url().default('https://api.telegram.org'),
  /** The channel of the boost task (@username or -100… id); empty = derived from CHANNEL_URL. */
  BOOST_CHANNEL_ID: text,
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
  BROADCAST_IDLE_POLL_MS: ms(1_000),
  // Jobs
  /** GET /public/test-cron runs the jobs once only when this is on. */
  ENABLE_TEST_CRON: envFlag.default(false),
  /** An off switch for the scheduled jobs in this process; each job runs once across processes anyway. */
  JOBS_ENABLED: envFlag.default(true),
  STATS_REFRESH_MS: ms(60_000),
  /** How often the job checks the channel membership of friends who reached $100 (§9 invite rule). */
  CHANNEL_CHECK_MS: ms(30_000),
  /** When a friend is not (yet) a channel member, how long until they are checked again. */
  CHANNEL_RECHECK_MS: ms(600_000),
};

/** The keys this module reads from the server config (a subset of Config). */
export type OutsideConfig = { [K in keyof typeof outsideConfigShape]: z.output<(typeof outsideConfigShape)[K]> } & {
  PUBLIC_URL?: string | undefined;
  PORT: number;
  CHANNEL_URL: string;
  BOT_TOKEN?: string | undefined;
};

export const publicUrl = (c: Pick<OutsideConfig, 'PUBLIC_URL' | 'PORT'>): string => (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, '');

const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);

export const turnstileHostnames = (c: OutsideConfig): string[] =>
  c.TURNSTILE_HOSTNAMES ? list(c.TURNSTILE_HOSTNAMES) : [new URL(publicUrl(c)).hostname];

export const xCallbackUrl = (c: OutsideConfig): string => c.X_CALLBACK_URL || `${publicUrl(c)}${apiPrefix}/callback/twitter`;

export const xRedirectAllowlist = (c: OutsideConfig): string[] => (c.X_REDIRECT_ALLOWLIST ? list(c.X_REDIRECT_ALLOWLIST) : [`${publicUrl(c)}/`]);

export const miniAppUrl = (c: OutsideConfig): string => c.MINI_APP_URL || `${publicUrl(c)}/app`;

/** https://t.me/money_channel → @money_channel; a configured id wins. */
export const boostChannelId = (c: OutsideConfig): string => {
  if (c.BOOST_CHANNEL_ID) return c.BOOST_CHANNEL_ID;
  const name = new URL(c.CHANNEL_URL).pathname.split('/').filter(Boolean)[0] ?? '';
  return name ? `@${name}` : '';
};

/** The webhook secret_token: configured, or a digest of the bot token (the same in every process). */
export const webhookSecret = (c: OutsideConfig): string =>
  c.WEBHOOK_SECRET || (c.BOT_TOKEN ? createHash('sha256').update(`webhook:${c.BOT_TOKEN}`).digest('hex') : '');
