/**
 * The daily reset. Daily tasks (the ADS task's 10 views among them) keep their progress under the
 * UTC date (server/tasks/tasks.ts periodOf), so a new day starts at 0 by itself, even when this job
 * did not run; the job removes the finished days and the spent one-time tokens, each feature its
 * own rows (clicks, tasks, x-account), in one transaction. It runs once per UTC day across all
 * processes (server/core/jobs/job.ts).
 */
import type { Db } from '../core/db/db.ts';
import { pruneClickBatches } from '../clicks/exports.ts';
import { runJobIfDue, type Job, type JobOutcome } from '../core/jobs/job.ts';
import { pruneTaskHistory } from '../tasks/exports.ts';
import { pruneXStates } from '../x-account/exports.ts';

export const utcDay = (nowMs: number): string => new Date(nowMs).toISOString().slice(0, 10);

export interface DailyResetResult {
  /** False when another process (or an earlier call) already ran today's reset. */
  ran: boolean;
  day: string;
  dailyRowsRemoved: number;
  adSessionsRemoved: number;
  captchaTokensRemoved: number;
  xStatesRemoved: number;
  /** Click batch ids older than the idempotency window (7 days) no longer need their first answer. */
  clickBatchesRemoved: number;
}

/** Today's reset, in the job's transaction (server/core/jobs/job.ts): once per UTC day across processes. */
export const dailyResetJob: Job<Omit<DailyResetResult, 'ran'>> = {
  name: 'daily-reset',
  periodOf: utcDay,
  checkEveryMs: 60_000,
  run: async ({ tx, nowMs }) => {
    const day = utcDay(nowMs);
    // pruneClickBatches asks for the Db but runs one DELETE: it belongs in this transaction too
    // (on PGlite a query beside an open transaction would wait for it forever).
    const clickBatchesRemoved = await pruneClickBatches(tx as Db, nowMs);
    const tasks = await pruneTaskHistory(tx, day, nowMs);
    const xStatesRemoved = await pruneXStates(tx, nowMs);
    return {
      day,
      ...tasks,
      xStatesRemoved,
      clickBatchesRemoved,
    };
  },
};

/** The daily reset now, if today's has not run (or `force`); `ran` is false when another run did or does it. */
export const runDailyReset = async (db: Db, nowMs: number, opts: { force?: boolean } = {}): Promise<DailyResetResult> =>
  dailyResetResultOf(await runJobIfDue(db, dailyResetJob, nowMs, opts));

/** A run of the daily reset job as its result: nothing removed when it did not run. */
export const dailyResetResultOf = (outcome: JobOutcome<Omit<DailyResetResult, 'ran'>>): DailyResetResult =>
  outcome.ran
    ? { ran: true, ...outcome.result }
    : { ran: false, day: outcome.period, dailyRowsRemoved: 0, adSessionsRemoved: 0, captchaTokensRemoved: 0, xStatesRemoved: 0, clickBatchesRemoved: 0 };
