/**
 * The job scheduler: every process runs it, and each job runs once per period across all of them
 * (server/jobs/job.ts, docs/scaling.md "Jobs"). A job added to `scheduledJobs` gets that by itself.
 * `runJobsOnce` is what GET /public/test-cron calls.
 */
import type { Clock } from '../clock.ts';
import type { Db } from '../db/db.ts';
import { runJobIfDue, type Job } from './job.ts';
import { dailyResetJob, runDailyReset, type DailyResetResult } from './daily-reset.ts';
import { refreshStatsCache } from './stats-cache.ts';
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
}

/** Both jobs, now; `force` reruns the daily reset even if today's already ran (test cron). */
export const runJobsOnce = async (db: Db, nowMs: number, opts: { force?: boolean } = {}): Promise<JobsResult> => ({
  dailyReset: await runDailyReset(db, nowMs, opts),
  stats: await refreshStatsCache(db, nowMs),
});

export interface JobsDeps {
  db: Db;
  clock: Clock;
  jobs: readonly Job[];
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
  const timers = deps.jobs.map((job) => {
    let busy = false;
    const tick = () => {
      if (busy) return;
      busy = true;
      const run = runJobIfDue(deps.db, job, deps.clock.now())
        // A database outage only delays the period: the next check runs it.
        .catch((err: unknown) => log(`jobs: ${job.name} failed: ${String(err)}`))
        .finally(() => {
          busy = false;
          running.delete(run);
        });
      running.add(run);
    };
    tick();
    const timer = setInterval(tick, job.checkEveryMs);
    timer.unref();
    return timer;
  });
  return {
    stop: async () => {
      for (const t of timers) clearInterval(t);
      await Promise.all([...running]);
    },
  };
};
