/**
 * Runs the scheduled jobs in this process: the stats refresh every STATS_REFRESH_MS, the daily
 * reset once per UTC day (checked every minute; job_runs makes it once across processes and
 * catches up after downtime), and the leaderboard's ranks (checked every second; it builds at most
 * every 60 s, see rank-snapshot.ts). `runJobsOnce` is what GET /public/test-cron calls.
 */
import type { Clock } from '../clock.ts';
import type { Db } from '../db/db.ts';
import { runDailyReset, type DailyResetResult } from './daily-reset.ts';
import { refreshStatsCache } from './stats-cache.ts';
import { buildRankSnapshot, ranksJob, type RankBuild } from './rank-snapshot.ts';
import type { RedisHandle } from '../redis.ts';
import type { PublicStats } from '../../engine/api-types.ts';

export interface JobsDeps {
  db: Db;
  clock: Clock;
  statsRefreshMs: number;
  /** With REDIS_URL: the ranks job also keeps the sorted set (server/domain/redis-ranks.ts). */
  redis?: RedisHandle;
  log?: (message: string) => void;
}

export interface JobsResult {
  dailyReset: DailyResetResult;
  stats: PublicStats;
  ranks: RankBuild;
}

/** Both jobs, now; `force` reruns the daily reset even if today's already ran (test cron). */
export const runJobsOnce = async (db: Db, nowMs: number, opts: { force?: boolean } = {}): Promise<JobsResult> => ({
  dailyReset: await runDailyReset(db, nowMs, opts),
  stats: await refreshStatsCache(db, nowMs),
  ranks: await buildRankSnapshot(db, nowMs),
});

export interface JobsHandle {
  stop(): Promise<void>;
}

const dailyCheckMs = 60_000;
/** The ranks job decides itself when a build is due (rank-snapshot.ts); it looks every second. */
const ranksCheckMs = 1_000;

export const startJobs = (deps: JobsDeps): JobsHandle => {
  const log = deps.log ?? ((m: string) => console.warn(m));
  let running: Promise<unknown> = Promise.resolve();
  // Each tick waits for the previous one, so a slow database never stacks runs.
  const guarded = (name: string, job: () => Promise<unknown>) => () => {
    running = running.then(job).catch((err) => log(`jobs: ${name} failed: ${String(err)}`));
  };
  const stats = guarded('stats refresh', () => refreshStatsCache(deps.db, deps.clock.now()));
  const daily = guarded('daily reset', () => runDailyReset(deps.db, deps.clock.now()));
  const ranksTick = ranksJob(deps.db, deps.redis);
  const ranks = guarded('ranks', () => ranksTick(deps.clock.now()));
  stats();
  daily();
  ranks();
  const timers = [setInterval(stats, deps.statsRefreshMs), setInterval(daily, dailyCheckMs), setInterval(ranks, ranksCheckMs)];
  for (const t of timers) t.unref();
  return {
    stop: async () => {
      for (const t of timers) clearInterval(t);
      await running;
    },
  };
};
