/**
 * The job scheduler: every process runs it, and each job runs once per period across all of them
 * (server/jobs/job.ts, docs/faults.md "Jobs"). A job added to `scheduledJobs` gets that by itself.
 * Three jobs coordinate themselves instead and run in every process on a timer: the leaderboard's
 * ranks claim each build in the database (rank-snapshot.ts; checked every second, built at most
 * every 60 s), the channel membership checks of the invite rule lease their own rows
 * (domain/channel-rule.ts) and ask Telegram outside any transaction, and the console's aggregates
 * fold click batches under a row lock of their own (jobs/console-aggregates.ts). `runJobsOnce` is what GET /public/test-cron calls.
 */
import type { Clock } from '../clock.ts';
import type { Db } from '../db/db.ts';
import { runChannelChecks, type ChannelCheckResult, type MembershipCheck } from '../domain/channel-rule.ts';
import { runJobIfDue, type Job } from './job.ts';
import { refreshConsoleAggregates } from './console-aggregates.ts';
import { dailyResetJob, runDailyReset, type DailyResetResult } from './daily-reset.ts';
import { refreshStatsCache } from './stats-cache.ts';
import { buildRankSnapshot, ranksJob, type RankBuild } from './rank-snapshot.ts';
import type { RedisHandle } from '../redis.ts';
import type { PublicStats } from '../../engine/api-types.ts';

/** The stats cache (§3), once per `everyMs` window of the wall clock. */
export const statsRefreshJob = (everyMs: number): Job<PublicStats> => ({
  name: 'stats-refresh',
  periodOf: (nowMs) => String(Math.floor(nowMs / everyMs)),
  checkEveryMs: Math.max(1, Math.floor(everyMs / 2)),
  run: ({ tx, nowMs }) => refreshStatsCache(tx, nowMs),
});

/** Every scheduled job. Add new ones here: they run once per period across processes by themselves. */
export const scheduledJobs = (opts: { statsRefreshMs: number }): Job[] => [statsRefreshJob(opts.statsRefreshMs), dailyResetJob];

export interface JobsResult {
  dailyReset: DailyResetResult;
  stats: PublicStats;
  channel?: ChannelCheckResult;
  ranks: RankBuild;
}

/** The jobs, now; `force` reruns the daily reset even if today's already ran (test cron). */
export const runJobsOnce = async (db: Db, nowMs: number, opts: { force?: boolean; channel?: ChannelJob } = {}): Promise<JobsResult> => ({
  dailyReset: await runDailyReset(db, nowMs, opts),
  stats: await refreshStatsCache(db, nowMs),
  ...(opts.channel ? { channel: await runChannelChecks(db, opts.channel.isMember, nowMs, opts.channel.recheckMs) } : {}),
  ranks: await buildRankSnapshot(db, nowMs),
});

export interface ChannelJob {
  isMember: MembershipCheck;
  everyMs: number;
  recheckMs: number;
}

/** A job that is safe in every process at once (its own leases or row locks), run on a timer. */
export interface SelfCoordinatedJob {
  name: string;
  everyMs: number;
  run(db: Db, nowMs: number): Promise<unknown>;
}

/** The ranks job decides itself when a build is due (rank-snapshot.ts); it looks every second. */
const ranksCheckMs = 1_000;

/** The self-coordinated jobs: the ranks, the console's aggregates on the stats cadence, and the channel checks. */
export const selfCoordinatedJobs = (opts: {
  db: Db;
  statsRefreshMs: number;
  channel?: ChannelJob | undefined;
  /** With REDIS_URL: the ranks job also keeps the sorted set (server/domain/redis-ranks.ts). */
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

export interface JobsDeps {
  db: Db;
  clock: Clock;
  jobs: readonly Job[];
  selfCoordinated?: readonly SelfCoordinatedJob[];
  log?: (message: string) => void;
}

export interface JobsHandle {
  /** Stops the timers and waits for runs in progress. */
  stop(): Promise<void>;
}

/** Checks each job at once and then every checkEveryMs; a job's checks never overlap in one process. */
export const startJobs = (deps: JobsDeps): JobsHandle => {
  const log = deps.log ?? ((m: string) => console.warn(m));
  const running = new Set<Promise<unknown>>();
  /** Runs `work` now and every `everyMs`; its runs never overlap in this process. */
  const every = (name: string, everyMs: number, work: () => Promise<unknown>) => {
    let busy = false;
    const tick = () => {
      if (busy) return;
      busy = true;
      const run = work()
        // A database or Telegram outage only delays the work: the next check does it.
        .catch((err: unknown) => log(`jobs: ${name} failed: ${String(err)}`))
        .finally(() => {
          busy = false;
          running.delete(run);
        });
      running.add(run);
    };
    tick();
    const timer = setInterval(tick, everyMs);
    timer.unref();
    return timer;
  };
  const timers = deps.jobs.map((job) => every(job.name, job.checkEveryMs, () => runJobIfDue(deps.db, job, deps.clock.now())));
  for (const job of deps.selfCoordinated ?? []) timers.push(every(job.name, job.everyMs, () => job.run(deps.db, deps.clock.now())));
  return {
    stop: async () => {
      for (const t of timers) clearInterval(t);
      await Promise.all([...running]);
    },
  };
};
