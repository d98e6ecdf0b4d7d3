/**
 * The jobs the scheduler (server/core/jobs/scheduler.ts) runs: each runs once per period across all
 * processes (server/core/jobs/job.ts, docs/faults.md "Jobs"). A job added to `scheduledJobs` gets that by itself.
 * Three jobs coordinate themselves instead and run in every process on a timer: the leaderboard's
 * ranks apply the marked balance changes under a transaction lock (server/leaderboard/ranks-job.ts; every
 * second, one process at a time), the channel membership checks of the invite rule lease their own rows
 * (server/referrals/channel-rule.ts) and ask Telegram outside any transaction, and the console's aggregates
 * fold click batches under a row lock of their own (server/console/console-aggregates.ts).
 * `backgroundJobs` is the one list of both kinds: the scheduler starts it (runtime.ts) and
 * `runJobsOnce`, what GET /public/test-cron calls, runs it once, now.
 */
import type { PublicStats } from '../../engine/wire/api-types.ts';
import type { Config } from './settings.ts';
import type { Db } from '../core/db/db.ts';
import { runJobIfDue, type Job, type JobOutcome } from '../core/jobs/job.ts';
import type { SelfCoordinatedJob } from '../core/jobs/scheduler.ts';
import type { RedisHandle } from '../core/redis.ts';
import { dailySecretOf } from '../daily/exports.ts';
import { miniAppUrl } from '../bot/exports.ts';
import { refreshConsoleAggregates } from '../console/exports.ts';
import { ranksJob, type RankApply, type RanksTick } from '../leaderboard/exports.ts';
import { rebuildStatsCache, refreshStatsCache } from '../leaderboard/exports.ts';
import { runChannelChecks, type ChannelCheckResult, type MembershipCheck } from '../referrals/exports.ts';
import { isChannelMember } from '../tasks/exports.ts';
import { integrityRulesOf, integritySignalsJob, integritySignalsJobName, type IntegrityRules, type IntegrityRunResult } from '../integrity/exports.ts';
import { dailyResetJob, dailyResetResultOf, type DailyResetResult } from './daily-reset.ts';
import { dailyPuzzlesJob, dailyRemindersJob } from '../daily/exports.ts';
import { starsReconcileJob } from '../shop/exports.ts';

/** The stats cache (§3): its counters' deltas folded in, once per `everyMs` window of the wall clock. */
const statsRefreshName = 'stats-refresh';
const channelChecksName = 'channel-checks';
const ranksName = 'ranks';

export const statsRefreshJob = (everyMs: number): Job<PublicStats> => ({
  name: statsRefreshName,
  periodOf: (nowMs) => String(Math.floor(nowMs / everyMs)),
  checkEveryMs: Math.max(1, Math.floor(everyMs / 2)),
  run: ({ tx, nowMs }) => refreshStatsCache(tx, nowMs),
});

/**
 * The stats counters counted from scratch once a UTC day (one scan of users; seconds at 10M
 * players): a change that wrote no delta — a balance set by hand in SQL, a click served by the
 * previous version during a rolling deploy — is corrected within the day (docs/storage.md).
 */
export const statsReconcileJob: Job<PublicStats> = {
  name: 'stats-reconcile',
  periodOf: (nowMs) => new Date(nowMs).toISOString().slice(0, 10),
  checkEveryMs: 10 * 60_000,
  run: ({ tx, nowMs }) => rebuildStatsCache(tx, nowMs),
};

/**
 * Every scheduled job. Add new ones here: they run once per period across processes by themselves.
 * With `integrity`, the integrity review's signals (server/integrity/signals-job.ts), every INTEGRITY_JOB_MS.
 */
export const scheduledJobs = (opts: { statsRefreshMs: number; integrity?: IntegrityRules; daily?: DailyJobs; stars?: StarsJob }): Job[] => [
  statsRefreshJob(opts.statsRefreshMs),
  statsReconcileJob,
  dailyResetJob,
  ...(opts.integrity !== undefined ? [integritySignalsJob(opts.integrity) as Job] : []),
  ...(opts.daily !== undefined ? [dailyPuzzlesJob(opts.daily.secret) as Job, dailyRemindersJob(opts.daily.reminders) as Job] : []),
  // The Stars shop's reconciliation with getStarTransactions (docs/shop.md), with a real bot only.
  ...(opts.stars !== undefined ? [starsReconcileJob(opts.stars) as Job] : []),
];

/** What the Stars reconciliation job needs: the Bot API and its period. */
export type StarsJob = Pick<Config, 'BOT_TOKEN' | 'BOT_API_ROOT' | 'OUTSIDE_TIMEOUT_MS' | 'SHOP_RECONCILE_MS'>;

/** The daily loop's jobs (docs/rules.md §15): the day's draws, and the reminders every `everyMs`. */
export interface DailyJobs {
  secret: Buffer;
  reminders: { everyMs: number; batch: number; miniAppUrl: string; awayMs: number };
}

export interface JobsResult {
  dailyReset: DailyResetResult;
  /** The stats cache folded now (absent: another process was folding it). */
  stats?: PublicStats;
  channel?: ChannelCheckResult;
  /** The marked balance changes applied to the ranked view (null: nothing marked, or another process was applying). */
  ranks: RankApply | null;
  integrity?: IntegrityRunResult;
  /** Every job of the set by name: a scheduled job's outcome, a self-coordinated job's result. */
  runs: Record<string, unknown>;
}

/** Every job one process runs: once per period across processes, and those that coordinate themselves. */
export interface JobSet {
  jobs: Job[];
  selfCoordinated: SelfCoordinatedJob[];
}

/**
 * The one list of background jobs, from the config: the scheduler starts it (runtime.ts) and the
 * test cron runs it once (`runJobsOnce`). `realBot`: a bot runs on BOT_TOKEN (the Stars
 * reconciliation asks its Bot API).
 */
export function backgroundJobs(config: Config, deps: { db: Db; realBot: boolean; redis?: RedisHandle | undefined }): JobSet {
  return {
    jobs: scheduledJobs({
      statsRefreshMs: config.STATS_REFRESH_MS,
      integrity: integrityRulesOf(config),
      daily: { secret: dailySecretOf(config), reminders: { everyMs: config.REMINDERS_CHECK_MS, batch: config.REMINDERS_BATCH, miniAppUrl: miniAppUrl(config), awayMs: config.REMINDERS_AWAY_MS } },
      ...(deps.realBot && config.BOT_TOKEN !== undefined ? { stars: config } : {}),
    }),
    selfCoordinated: selfCoordinatedJobs({ db: deps.db, statsRefreshMs: config.STATS_REFRESH_MS, channel: channelJob(config), ...(deps.redis !== undefined ? { redis: deps.redis } : {}) }),
  };
}

/** Every job of `set`, now, one after the other; `force` reruns a scheduled job whose period already ran (test cron). */
export async function runJobsOnce(db: Db, nowMs: number, set: JobSet, opts: { force?: boolean } = {}): Promise<JobsResult> {
  const runs: Record<string, unknown> = {};
  for (const job of set.jobs) runs[job.name] = await runJobIfDue(db, job, nowMs, opts);
  for (const job of set.selfCoordinated) runs[job.name] = await job.run(db, nowMs);
  const ran = <T>(name: string): T | undefined => {
    const outcome = runs[name] as JobOutcome<T> | undefined;
    return outcome?.ran === true ? outcome.result : undefined;
  };
  const stats = ran<PublicStats>(statsRefreshName);
  const integrity = ran<IntegrityRunResult>(integritySignalsJobName);
  const channel = runs[channelChecksName] as ChannelCheckResult | undefined;
  return {
    dailyReset: dailyResetResultOf(runs[dailyResetJob.name] as JobOutcome<Omit<DailyResetResult, 'ran'>>),
    ...(stats !== undefined ? { stats } : {}),
    ...(channel !== undefined ? { channel } : {}),
    ranks: (runs[ranksName] as RanksTick | null | undefined)?.applied ?? null,
    ...(integrity !== undefined ? { integrity } : {}),
    runs,
  };
}

export interface ChannelJob {
  isMember: MembershipCheck;
  everyMs: number;
  recheckMs: number;
}

/** The ranks job applies the balance changes marked since its last tick (server/leaderboard/ranks-job.ts), every second. */
const ranksCheckMs = 1_000;

/** The self-coordinated jobs: the ranks, the console's aggregates on the stats cadence, and the channel checks. */
export const selfCoordinatedJobs = (opts: {
  db: Db;
  statsRefreshMs: number;
  channel?: ChannelJob | undefined;
  /** With REDIS_URL: the ranks job also keeps the sorted set (server/leaderboard/redis-ranks.ts). */
  redis?: RedisHandle;
}): SelfCoordinatedJob[] => {
  const channel = opts.channel;
  const ranksTick = ranksJob(opts.db, opts.redis);
  // The channel checks first: a test cron's run then ranks the invite bonuses they released.
  return [
    ...(channel ? [{ name: channelChecksName, everyMs: channel.everyMs, run: (db: Db, nowMs: number) => runChannelChecks(db, channel.isMember, nowMs, channel.recheckMs) }] : []),
    { name: ranksName, everyMs: ranksCheckMs, run: (_db, nowMs) => ranksTick(nowMs) },
    // The operator console's dashboard and cheat signals (docs/admin.md).
    { name: 'console-aggregates', everyMs: opts.statsRefreshMs, run: refreshConsoleAggregates },
  ];
};

/** The invite rule's membership job: getChatMember in the configured channel (§9). */
export const channelJob = (config: Config): ChannelJob => ({
  isMember: (id) => isChannelMember(config, id),
  everyMs: config.CHANNEL_CHECK_MS,
  recheckMs: config.CHANNEL_RECHECK_MS,
});
