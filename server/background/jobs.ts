/**
 * The jobs the scheduler (server/core/jobs/scheduler.ts) runs: each runs once per period across all
 * processes (server/core/jobs/job.ts, docs/faults.md "Jobs"). A job added to `scheduledJobs` gets that by itself.
 * Three jobs coordinate themselves instead and run in every process on a timer: the leaderboard's
 * ranks apply the marked balance changes under a transaction lock (server/leaderboard/ranks-job.ts; every
 * second, one process at a time), the channel membership checks of the invite rule lease their own rows
 * (server/referrals/channel-rule.ts) and ask Telegram outside any transaction, and the console's aggregates
 * fold click batches under a row lock of their own (server/console/console-aggregates.ts). `runJobsOnce` is what GET /public/test-cron calls.
 */
import type { PublicStats } from '../../engine/api-types.ts';
import type { Config } from '../core/config/config.ts';
import type { Db } from '../core/db/db.ts';
import type { Job } from '../core/jobs/job.ts';
import type { SelfCoordinatedJob } from '../core/jobs/scheduler.ts';
import type { RedisHandle } from '../core/redis.ts';
import { refreshConsoleAggregates } from '../console/exports.ts';
import { applyPendingRanks, ranksJob, type RankApply } from '../leaderboard/exports.ts';
import { rebuildStatsCache, refreshStatsCache } from '../leaderboard/exports.ts';
import { runChannelChecks, type ChannelCheckResult, type MembershipCheck } from '../referrals/exports.ts';
import { isChannelMember } from '../tasks/exports.ts';
import { integritySignalsJob, refreshIntegrity, type IntegrityRules, type IntegrityRunResult } from '../integrity/exports.ts';
import { dailyResetJob, runDailyReset, type DailyResetResult } from './daily-reset.ts';
import { dailyPuzzlesJob, dailyRemindersJob } from '../daily/exports.ts';
import { starsReconcileJob } from '../shop/exports.ts';

/** The stats cache (§3): its counters' deltas folded in, once per `everyMs` window of the wall clock. */
export const statsRefreshJob = (everyMs: number): Job<PublicStats> => ({
  name: 'stats-refresh',
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
  stats: PublicStats;
  channel?: ChannelCheckResult;
  /** The marked balance changes applied to the ranked view (null: another process was applying). */
  ranks: RankApply | null;
  integrity?: IntegrityRunResult;
}

/** The jobs, now; `force` reruns the daily reset even if today's already ran (test cron). */
export const runJobsOnce = async (db: Db, nowMs: number, opts: { force?: boolean; channel?: ChannelJob; integrity?: IntegrityRules } = {}): Promise<JobsResult> => ({
  dailyReset: await runDailyReset(db, nowMs, opts),
  stats: await refreshStatsCache(db, nowMs),
  ...(opts.channel ? { channel: await runChannelChecks(db, opts.channel.isMember, nowMs, opts.channel.recheckMs) } : {}),
  ranks: await applyPendingRanks(db, nowMs),
  ...(opts.integrity ? { integrity: await refreshIntegrity(db, nowMs, opts.integrity) } : {}),
});

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
  return [
    { name: 'ranks', everyMs: ranksCheckMs, run: (_db, nowMs) => ranksTick(nowMs) },
    // The operator console's dashboard and cheat signals (docs/admin.md).
    { name: 'console-aggregates', everyMs: opts.statsRefreshMs, run: refreshConsoleAggregates },
    ...(channel ? [{ name: 'channel-checks', everyMs: channel.everyMs, run: (db: Db, nowMs: number) => runChannelChecks(db, channel.isMember, nowMs, channel.recheckMs) }] : []),
  ];
};

/** The invite rule's membership job: getChatMember in the configured channel (§9). */
export const channelJob = (config: Config): ChannelJob => ({
  isMember: (id) => isChannelMember(config, id),
  everyMs: config.CHANNEL_CHECK_MS,
  recheckMs: config.CHANNEL_RECHECK_MS,
});
