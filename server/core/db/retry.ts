/**
 * The one retry policy for the database (docs/faults.md "When the database is away"): which failures
 * are worth another run and how many runs in all. `transaction()` and the click group's write both
 * run through `retrying`; nothing else in server/ loops over a failed statement but the rank swap,
 * which waits for a reader to let go of the old tables (`isLockTimeout`, server/leaderboard/rank-view.ts).
 */
import { CommitUnknown, isUnavailable } from './errors.ts';

/** Runs in all, the first included. */
export const dbAttempts = 3;

// PostgreSQL aborts one side of a deadlock (40P01) or a serialisation conflict (40001) and asks the
// client to run it again; the transaction changed nothing, so running it again is safe.
const conflictCodes = new Set(['40P01', '40001']);

/** True when PostgreSQL aborted the statement or transaction for a deadlock or a serialisation conflict. */
export const isConflict = (err: unknown): boolean => conflictCodes.has((err as { code?: string } | null)?.code ?? '');

/**
 * True for a statement that ran out of time: PostgreSQL's statement timeout (57014) or the
 * client's read timeout. A transaction is not run again for it: a run takes up to its whole bound,
 * and three would hold the request (or the job) three times as long.
 */
export const isTimeout = (err: unknown): boolean => {
  const e = err as { code?: unknown; message?: unknown } | null;
  return e?.code === '57014' || (typeof e?.message === 'string' && /Query read timeout/i.test(e.message));
};

/** True when a statement gave up waiting for a lock after its `lock_timeout` (55P03 lock_not_available). */
export const isLockTimeout = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === '55P03';

/**
 * Worth another run: a conflict, or the database away (a dropped connection, a failover's standby,
 * a timeout). A COMMIT whose answer was lost (`CommitUnknown`) is not: it may have committed, and
 * only the caller can tell by reading what is stored.
 */
export const worthAnotherRun = (err: unknown): boolean => !(err instanceof CommitUnknown) && (isConflict(err) || isUnavailable(err));

/**
 * Runs `run` until it resolves, up to `dbAttempts` times while it fails with what is worth another
 * run; the last failure is thrown. `onFailure` sees every failure and may end the runs early for one
 * only the caller understands (a write that may have committed and that it could not recognise again).
 */
export async function retrying<T>(run: (attempt: number) => Promise<T>, onFailure: (err: unknown) => 'stop' | 'go on' = () => 'go on'): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(attempt);
    } catch (err) {
      if (onFailure(err) === 'stop' || attempt >= dbAttempts || !worthAnotherRun(err)) throw err;
    }
  }
}
