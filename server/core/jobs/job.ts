/**
 * One scheduled job's run, once per period across every process (docs/faults.md "Jobs"). A run
 * locks the job's row in job_schedule with FOR UPDATE SKIP LOCKED, does its work in that
 * transaction and records the period there: another process skips a locked row, a finished period
 * is not run again, and a process killed mid-run rolls back, so the next check (in any process)
 * runs the period again from scratch.
 */
import type { Db, Queryable } from '../db/db.ts';
import { transaction } from '../db/transaction.ts';

export interface JobRun {
  /** The transaction that records the period: work written through it commits with the period or not at all. */
  tx: Queryable;
  nowMs: number;
}

export interface Job<T = unknown> {
  name: string;
  /** The period a run covers (a UTC day, an hour…): one run per distinct value, across processes. */
  periodOf(nowMs: number): string;
  /** How often each process checks whether the period is done; keep it under the period's length. */
  checkEveryMs: number;
  run(ctx: JobRun): Promise<T>;
}

export type JobOutcome<T> = { ran: true; period: string; result: T } | { ran: false; period: string };

/** Runs `job` when its current period has not run yet and no other process is running it. */
export const runJobIfDue = async <T>(db: Db, job: Job<T>, nowMs: number, opts: { force?: boolean } = {}): Promise<JobOutcome<T>> => {
  const period = job.periodOf(nowMs);
  await db.query('INSERT INTO job_schedule (job) VALUES ($1) ON CONFLICT (job) DO NOTHING', [job.name]);
  return transaction(db, async (tx): Promise<JobOutcome<T>> => {
    const r = await tx.query<{ last_period: string; last_run_at_ms: string | number }>(
      'SELECT last_period, last_run_at_ms FROM job_schedule WHERE job = $1 FOR UPDATE SKIP LOCKED',
      [job.name],
    );
    const row = r.rows[0];
    // Locked: another process is running it now. Same period: it already ran. A clock reading older
    // than the last run (taken before a slow wait) belongs to a period already passed: running it
    // would record that period again after a newer one.
    if (row === undefined) return { ran: false, period };
    const stale = row.last_period === period || nowMs < Number(row.last_run_at_ms);
    if (stale && opts.force !== true) return { ran: false, period };
    const result = await job.run({ tx, nowMs });
    await tx.query('UPDATE job_schedule SET last_period = $2, runs = runs + 1, last_run_at_ms = $3 WHERE job = $1', [job.name, period, nowMs]);
    return { ran: true, period, result };
  });
};
