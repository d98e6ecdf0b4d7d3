/**
 * The job scheduler: every process runs it, and each job runs once per period across all of them
 * (server/core/jobs/job.ts, docs/faults.md "Jobs"). Self-coordinated jobs (their own leases or row
 * locks) run in every process on a timer. Which jobs there are is the background feature's table
 * (server/background/jobs.ts); this file only knows how to run them.
 */
import type { Clock } from '../clock.ts';
import type { Db } from '../db/db.ts';
import { metrics, recordJobCheck, recordJobStarted } from '../metrics.ts';
import { runJobIfDue, type Job } from './job.ts';

/** A job that is safe in every process at once (its own leases or row locks), run on a timer. */
export interface SelfCoordinatedJob {
  name: string;
  everyMs: number;
  /** Resolves null when there was nothing to do (not timed in money_job_duration_seconds). */
  run(db: Db, nowMs: number): Promise<unknown>;
}

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
  /**
   * Runs `work` now and every `everyMs`; its runs never overlap in this process. `work` resolves
   * true when it did work (not when its period was already done), for the job's metrics.
   */
  const every = (name: string, everyMs: number, work: () => Promise<boolean>) => {
    recordJobStarted(name, everyMs);
    let busy = false;
    const tick = () => {
      if (busy) return;
      busy = true;
      const startedMs = performance.now();
      const run = work()
        .then((didWork) => recordJobCheck(name, (performance.now() - startedMs) / 1_000, didWork))
        // A database or Telegram outage only delays the work: the next check does it.
        .catch((err: unknown) => {
          metrics.jobs.failures.inc({ name });
          log(`jobs: ${name} failed: ${String(err)}`);
        })
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
  const timers = deps.jobs.map((job) => every(job.name, job.checkEveryMs, async () => (await runJobIfDue(deps.db, job, deps.clock.now())).ran));
  // A self-coordinated job answers null when it had nothing to do (the ranks job between builds).
  for (const job of deps.selfCoordinated ?? []) timers.push(every(job.name, job.everyMs, async () => (await job.run(deps.db, deps.clock.now())) != null));
  return {
    stop: async () => {
      for (const t of timers) clearInterval(t);
      await Promise.all([...running]);
    },
  };
};
