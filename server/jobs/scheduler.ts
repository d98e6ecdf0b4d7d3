/**
 * Runs the scheduled jobs in this process: the stats refresh every STATS_REFRESH_MS, and the daily
 * reset once per UTC day (checked every minute; job_runs makes it once across processes and
 * catches up after downtime). `runJobsOnce` is what GET /public/test-cron calls.
 */
import type { Clock } from '../clock.ts';
import type { Db } from '../db/db.ts';
import { refreshConsoleAggregates } from './console-aggregates.ts';
import { runDailyReset, type DailyResetResult } from './daily-reset.ts';
import { refreshStatsCache } from './stats-cache.ts';
import type { PublicStats } from '../../engine/api-types.ts';

export interface JobsDeps {
  db: Db;
  clock: Clock;
  statsRefreshMs: number;
  log?: (message: string) => void;
}

export interface JobsResult {
  dailyReset: DailyResetResult;
  stats: PublicStats;
}

/** Both jobs, now; `force` reruns the daily reset even if today's already ran (test cron). */
export const runJobsOnce = async (db: Db, nowMs: number, opts: { force?: boolean } = {}): Promise<JobsResult> => ({
  dailyReset: await runDailyReset(db, nowMs, opts),
  stats: await refreshStatsCache(db, nowMs),
});

export interface JobsHandle {
  stop(): Promise<void>;
}

const dailyCheckMs = 60_000;

export const startJobs = (deps: JobsDeps): JobsHandle => {
  const log = deps.log ?? ((m: string) => console.warn(m));
  let running: Promise<unknown> = Promise.resolve();
  // Each tick waits for the previous one, so a slow database never stacks runs.
  const guarded = (name: string, job: () => Promise<unknown>) => () => {
    running = running.then(job).catch((err) => log(`jobs: ${name} failed: ${String(err)}`));
  };
  const stats = guarded('stats refresh', () => refreshStatsCache(deps.db, deps.clock.now()));
  const daily = guarded('daily reset', () => runDailyReset(deps.db, deps.clock.now()));
  // The operator console's dashboard and cheat signals (docs/admin.md), on the stats cadence.
  const consoleAggregates = guarded('console aggregates', () => refreshConsoleAggregates(deps.db, deps.clock.now()));
  stats();
  daily();
  consoleAggregates();
  const timers = [setInterval(stats, deps.statsRefreshMs), setInterval(daily, dailyCheckMs), setInterval(consoleAggregates, deps.statsRefreshMs)];
  for (const t of timers) t.unref();
  return {
    stop: async () => {
      for (const t of timers) clearInterval(t);
      await running;
    },
  };
};
