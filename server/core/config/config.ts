import { z } from 'zod';
import { envFlag } from './env-flag.ts';
import { airdropConfigShape } from './airdrop-config.ts';
import { shopConfigShape } from './shop-config.ts';
import { adminConfigShape } from './admin-config.ts';
import { integrityConfigShape } from './integrity-config.ts';
import { dailyConfigShape } from './daily-config.ts';
import { outsideConfigShape } from './outside-config.ts';
import { operationsConfigShape } from './operations-config.ts';



/** Empty strings in an env file mean "not set". */
const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/**
 * The server's environment, validated once. Others extend it by adding keys to this one object
 * (service URLs and secrets, PORT, …); every key is the env variable's own name.
 */
/** A cross-key problem on `key`; `when` runs its check even when other keys failed, so the list of problems is complete. */
const always = (key: string, message: string) => ({ path: [key], message, when: () => true });

export const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    /** PostgreSQL connection string; when absent, embedded PGlite runs in DATA_DIR. */
    DATABASE_URL: optionalString.pipe(
      z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL').optional(),
    ),
    DATA_DIR: z.string().trim().min(1).default('./data'),
    /** Optional Redis (redis://host:6379/0) for live leaderboard ranks; PostgreSQL serves them without it (docs/scaling.md). */
    REDIS_URL: optionalString.pipe(z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL').optional()),
    /** Prepended to every Redis key, so deployments sharing one Redis stay apart. */
    REDIS_PREFIX: z.string().trim().regex(/^[A-Za-z0-9_:.-]{1,64}$/, 'must be 1–64 of A-Z a-z 0-9 _ : . -').default('money:'),
    /** The Telegram bot token that signs init data (`123456:ABC…`). */
    BOT_TOKEN: optionalString.pipe(z.string().regex(/^\d+:[A-Za-z0-9_-]{20,}$/, 'must look like 123456:ABC…').optional()),
    /** The bot's username (without @), for referral links. */
    BOT_USERNAME: z.string().trim().regex(/^[A-Za-z0-9_]{3,64}$/, 'must be a Telegram username without @').default('MoneyClickerBot'),
    /** Mini-app short name for t.me/<bot>/<app>?startapp= links; empty uses ?startapp on the bot. */
    MINI_APP_NAME: z.string().trim().default(''),
    /** Maximum age of Telegram init data (`auth_date`), in seconds. */
    INIT_DATA_MAX_AGE_S: z.coerce.number().int().positive().max(365 * 86_400).default(86_400),
    /** Test mode: the launcher may give createApp a steppable clock instead of the system clock. */
    TEST_MODE: envFlag.default(false),
    /** Behind a reverse proxy: take the client address from X-Forwarded-For (used for captcha checks). */
    TRUST_PROXY: envFlag.default(false),
    // Launch and the public config block (server/main.ts and server/web).
    /** The port the site and the API share. */
    PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
    /** The interface to listen on; 0.0.0.0 behind a proxy or in a container. */
    HOST: z.string().trim().min(1).default('127.0.0.1'),
    /** The public origin users reach (https behind a proxy); defaults to http://localhost:PORT. */
    PUBLIC_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    /** The social network (X) profile linked from the site. */
    TWITTER_URL: z.url().default('https://x.com/money'),
    /** The Telegram channel linked from the site and the social tasks. */
    CHANNEL_URL: z.url().default('https://t.me/money_channel'),
    /** The community group linked from the site. */
    COMMUNITY_URL: z.url().default('https://t.me/money_community'),
    /** Adsgram block ids for the ads task, comma-separated (§7: one is chosen from the list); empty turns ads off. */
    ADSGRAM_BLOCK_ID: z.string().trim().default(''),
    /** Cloudflare Turnstile site key (public half); empty turns the captcha widget off. */
    TURNSTILE_SITE_KEY: z.string().trim().default(''),
    /** Serve dist/ as it is, even when it looks older than the sources (a deploy that ships a built client). */
    SKIP_CLIENT_BUILD: envFlag.default(false),
    /** Local demo stand-ins for outside services without credentials; unset = on in development only. */
    DEMO_STAND_INS: envFlag.optional(),
    /** The Telegram user id that gets the story share in onboarding (§2). */
    STORY_SHARE_USER_ID: z.string().trim().regex(/^\d*$/, 'must be a numeric Telegram user id').default(''),
    /** API workers sharing PORT through node:cluster (server/core/cluster.ts); more than 1 needs PostgreSQL. */
    WORKERS: z.coerce.number().int().min(1).max(64).default(1),
    /** GET /metrics answers Prometheus with `Authorization: Bearer <METRICS_TOKEN>`; unset, /metrics is not served (docs/operations.md). */
    METRICS_TOKEN: optionalString.pipe(z.string().regex(/^[\x21-\x7e]{16,256}$/, 'must be 16–256 visible ASCII characters (no spaces)').optional()),
    // Outside services, the bot, broadcasts and jobs: server/core/config/outside-config.ts.
    ...outsideConfigShape,
    // TON wallet link and the airdrop: server/core/config/airdrop-config.ts.
    ...airdropConfigShape,
    // The operator console: server/core/config/admin-config.ts.
    ...adminConfigShape,
    // The airdrop's integrity review: server/core/config/integrity-config.ts.
    ...integrityConfigShape,
    // The daily loop: server/core/config/daily-config.ts.
    ...dailyConfigShape,
    // Load shedding, traces and the read replica: server/core/config/operations-config.ts.
    ...operationsConfigShape,
    // The Stars shop and its airdrop rule: server/core/config/shop-config.ts.
    ...shopConfigShape,
  })
  .refine((c) => !(c.NODE_ENV === 'production' && c.BOT_TOKEN === undefined), always('BOT_TOKEN', 'is required in production'))
  // Stand-ins accept anyone's captcha and X login: never in production.
  .refine((c) => !(c.NODE_ENV === 'production' && c.DEMO_STAND_INS === true), always('DEMO_STAND_INS', 'must be off in production'))
  // PGlite is an embedded, single-process database: several workers cannot share it.
  .refine((c) => c.WORKERS === 1 || c.DATABASE_URL !== undefined, always('WORKERS', 'more than 1 worker needs PostgreSQL (set DATABASE_URL): the embedded PGlite serves one process only'))
  // A replica of the embedded PGlite does not exist: the social reads stay on the one database.
  .refine((c) => c.DATABASE_REPLICA_URL === undefined || c.DATABASE_URL !== undefined, always('DATABASE_REPLICA_URL', 'needs DATABASE_URL: a replica follows a PostgreSQL primary'))
  // Shedding's floor is where its bound may start (docs/faults.md "Overload").
  .refine((c) => c.SHED_IN_FLIGHT_FLOOR <= c.SHED_MAX_IN_FLIGHT, always('SHED_IN_FLIGHT_FLOOR', 'must not be above SHED_MAX_IN_FLIGHT'))
  // The test clock can be moved by anyone who reaches the port: never in production.
  .refine((c) => !(c.NODE_ENV === 'production' && c.TEST_MODE === true), always('TEST_MODE', 'must be off in production'));

export type Config = z.output<typeof configSchema>;

/** Whether `npm start` runs the demo stand-ins: DEMO_STAND_INS, or by default in development only. */
export const demoStandInsOn = (c: Config): boolean => c.NODE_ENV !== 'production' && (c.DEMO_STAND_INS ?? c.NODE_ENV === 'development');

/** Validates the environment once, throwing one error that lists every problem. */
export const loadConfig = (env: Record<string, string | undefined> = process.env): Config => {
  const parsed = configSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `  - ${i.path.join('.') || '(root)'}: ${i.message}`);
  throw new Error(`Invalid server configuration:\n${problems.join('\n')}`);
};
