/**
 * What server/main.ts starts after the app listens, and stops before it closes:
 * - the bot: long polling, or (WEBHOOK_URL set) the webhook registered with Telegram, the updates
 *   then arriving at POST /public/telegram-webhook;
 * - the broadcast worker (resumes any queued broadcast);
 * - the scheduled jobs, once per period across every process (JOBS_ENABLED=0 turns them off here).
 * A development token (no real bot) runs neither the bot nor the worker.
 */
import type { Clock } from '../core/clock.ts';
import type { Config } from './settings.ts';
import type { Db } from '../core/db/db.ts';
import { startJobs, type JobsHandle } from '../core/jobs/scheduler.ts';
import { runParallel } from '../core/shutdown.ts';
import type { RedisHandle } from '../core/redis.ts';
import { webhookSecret } from '../bot/exports.ts';
import { allowedUpdates, startBroadcastWorker, type BroadcastWorker } from '../bot/exports.ts';
import { backgroundJobs } from './jobs.ts';
import { createGameBot } from './game-bot.ts';

export interface BackgroundDeps {
  db: Db;
  config: Config;
  clock: Clock;
  /** False for the development token of DATA_DIR/dev-bot-token: no bot can run on it. */
  realBot: boolean;
  /** False in all API workers but one: Telegram allows one long-polling client (default true). */
  pollUpdates?: boolean;
  /**
   * The scheduled jobs' database, without the request paths' statement timeout (a rank rebuild
   * reads every player); the request pool `db` when absent (PGlite, tests).
   */
  jobsDb?: Db;
  /** REDIS_URL's connection, for the ranks job. */
  redis?: RedisHandle;
  log?: (message: string) => void;
}

export type BotMode = 'polling' | 'webhook' | 'off';

export interface BotHandle {
  readonly mode: BotMode;
  stop(): Promise<void>;
}

/** Starts the bot: long polling, or registers WEBHOOK_URL with Telegram. */
export const startBot = async (deps: BackgroundDeps): Promise<BotHandle> => {
  const { config } = deps;
  const log = deps.log ?? ((m: string) => console.log(m));
  const token = config.BOT_TOKEN;
  if (!deps.realBot || token === undefined) return { mode: 'off', stop: async () => {} };
  const bot = createGameBot(deps, token);
  if (config.WEBHOOK_URL) {
    await bot.api.setWebhook(config.WEBHOOK_URL, { secret_token: webhookSecret(config), allowed_updates: [...allowedUpdates] });
    log(`bot: webhook set to ${config.WEBHOOK_URL}`);
    return { mode: 'webhook', stop: async () => {} };
  }
  if (deps.pollUpdates === false) return { mode: 'off', stop: async () => {} };
  // bot.start() resolves only when polling stops; failing to reach Telegram is logged, not fatal.
  const polling = bot.start({ allowed_updates: [...allowedUpdates], onStart: (me) => log(`bot: @${me.username} polling`) }).catch((err: unknown) => {
    log(`bot: polling stopped: ${String(err)}`);
  });
  return {
    mode: 'polling',
    stop: async () => {
      if (bot.isRunning()) await bot.stop();
      await polling;
    },
  };
};

export interface Background {
  readonly botMode: BotMode;
  readonly worker: BroadcastWorker | null;
  /** Stops taking work; sends in flight are recorded first (at most backgroundStopMs). Never throws. */
  stop(): Promise<void>;
}

/** How long each background part may take to stop; they stop side by side. */
export const backgroundStopMs = { bot: 3_000, worker: 5_000, jobs: 5_000 } as const;

/** The bot, the broadcast worker and the jobs, as one handle for main.ts. */
export const startBackground = async (deps: BackgroundDeps): Promise<Background> => {
  const { config } = deps;
  const log = deps.log ?? ((m: string) => console.log(m));
  const bot = await startBot(deps).catch((err: unknown) => {
    log(`bot: not started: ${String(err)}`);
    return { mode: 'off' as const, stop: async () => {} };
  });
  const worker =
    deps.realBot && config.BOT_TOKEN !== undefined
      ? startBroadcastWorker({
          db: deps.db,
          clock: deps.clock,
          token: config.BOT_TOKEN,
          apiRoot: config.BOT_API_ROOT,
          ratePerSecond: config.BROADCAST_RATE_PER_S,
          concurrency: config.BROADCAST_CONCURRENCY,
          leaseMs: config.BROADCAST_LEASE_MS,
          idlePollMs: config.BROADCAST_IDLE_POLL_MS,
          timeoutSeconds: 30,
          log,
        })
      : null;
  const jobs: JobsHandle | null = config.JOBS_ENABLED
    ? startJobs({
        db: deps.jobsDb ?? deps.db,
        clock: deps.clock,
        ...backgroundJobs(config, { db: deps.jobsDb ?? deps.db, realBot: deps.realBot, redis: deps.redis }),
        log,
      })
    : null;
  return {
    botMode: bot.mode,
    worker,
    // Independent and bounded (docs/faults.md "Stopping"): an unreachable Telegram makes
    // bot.stop() throw or hang, which must not keep the worker or the jobs from stopping.
    stop: async () => {
      const results = await runParallel([
        { name: 'bot', timeoutMs: backgroundStopMs.bot, run: () => bot.stop() },
        { name: 'broadcast worker', timeoutMs: backgroundStopMs.worker, run: async () => worker?.stop({ deadlineMs: backgroundStopMs.worker - 500 }) },
        { name: 'jobs', timeoutMs: backgroundStopMs.jobs, run: async () => jobs?.stop() },
      ]);
      for (const r of results) if (r.failure !== undefined) log(`${r.name}: stopped uncleanly: ${r.failure}`);
    },
  };
};

const started = new Set<Background>();

/** startBackground, remembered so that stopBot() can stop it (the launcher's two calls). */
export const startOutsideBackground = async (deps: BackgroundDeps): Promise<Background> => {
  const bg = await startBackground(deps);
  started.add(bg);
  return bg;
};

/** Stops everything startOutsideBackground started. */
export const stopBot = async (): Promise<void> => {
  const all = [...started];
  started.clear();
  await Promise.all(all.map((bg) => bg.stop()));
};
