import { z } from 'zod';
import { envFlag } from './env-flag.ts';
import { outsideConfigShape } from './outside-config.ts';
import { operationsConfigShape } from './operations-config.ts';

/** Empty strings in an env file mean "not set". */
const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/** A cross-key problem on `key`; `when` runs its check even when other keys failed, so the list of problems is complete. */
const always = (key: string, message: string) => ({ path: [key], message, when: () => true });

/**
 * Core's own settings: the keys the core, the launcher and the site read (the database, Redis,
 * the port, the bot token, …). Each feature keeps its own in its folder's settings.ts, and the
 * wiring composes them all with these (server/background/settings.ts); every key is the env
 * variable's own name.
 */
export const coreConfigShape = {
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
  // The outside calls' timeout, the Bot API's root and the jobs' switches: server/core/config/outside-config.ts.
  ...outsideConfigShape,
  // Load shedding, traces and the read replica: server/core/config/operations-config.ts.
  ...operationsConfigShape,
};

/** What core's own keys hold once validated; a core module takes the part of it that it reads. */
export type CoreConfig = z.output<z.ZodObject<typeof coreConfigShape>>;

/** Core's cross-key checks, each a problem on the key it names. */
const coreChecks: { ok: (c: CoreConfig) => boolean; key: string; message: string }[] = [
  { ok: (c) => !(c.NODE_ENV === 'production' && c.BOT_TOKEN === undefined), key: 'BOT_TOKEN', message: 'is required in production' },
  // Stand-ins accept anyone's captcha and X login: never in production.
  { ok: (c) => !(c.NODE_ENV === 'production' && c.DEMO_STAND_INS === true), key: 'DEMO_STAND_INS', message: 'must be off in production' },
  // PGlite is an embedded, single-process database: several workers cannot share it.
  { ok: (c) => c.WORKERS === 1 || c.DATABASE_URL !== undefined, key: 'WORKERS', message: 'more than 1 worker needs PostgreSQL (set DATABASE_URL): the embedded PGlite serves one process only' },
  // A replica of the embedded PGlite does not exist: the social reads stay on the one database.
  { ok: (c) => c.DATABASE_REPLICA_URL === undefined || c.DATABASE_URL !== undefined, key: 'DATABASE_REPLICA_URL', message: 'needs DATABASE_URL: a replica follows a PostgreSQL primary' },
  // Shedding's floor is where its bound may start (docs/faults.md "Overload").
  { ok: (c) => c.SHED_IN_FLIGHT_FLOOR <= c.SHED_MAX_IN_FLIGHT, key: 'SHED_IN_FLIGHT_FLOOR', message: 'must not be above SHED_MAX_IN_FLIGHT' },
  // The test clock can be moved by anyone who reaches the port: never in production.
  { ok: (c) => !(c.NODE_ENV === 'production' && c.TEST_MODE === true), key: 'TEST_MODE', message: 'must be off in production' },
];

/**
 * The one schema of the server's environment: core's keys and the features' (`shapes`, composed by
 * the wiring), with core's cross-key checks. A feature's shape checks each of its keys alone; every
 * check across keys today is core's.
 */
export function configSchemaOf<S extends z.ZodRawShape>(shapes: S) {
  const schema = z.object({ ...coreConfigShape, ...shapes });
  // The composed output holds every core key; the generic shape hides that from the checks' type.
  return coreChecks.reduce((s, check) => s.refine((c) => check.ok(c as unknown as CoreConfig), always(check.key, check.message)), schema);
}

/** Whether `npm start` runs the demo stand-ins: DEMO_STAND_INS, or by default in development only. */
export const demoStandInsOn = (c: Pick<CoreConfig, 'NODE_ENV' | 'DEMO_STAND_INS'>): boolean => c.NODE_ENV !== 'production' && (c.DEMO_STAND_INS ?? c.NODE_ENV === 'development');

/** Validates the environment once against the composed schema, throwing one error that lists every problem. */
export function loadSettings<T>(schema: z.ZodType<T>, env: Record<string, string | undefined> = process.env): T {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `  - ${i.path.join('.') || '(root)'}: ${i.message}`);
  throw new Error(`Invalid server configuration:\n${problems.join('\n')}`);
}
