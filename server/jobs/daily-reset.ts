/**
 * The daily reset. Daily tasks (the ADS task's 10 views among them) keep their progress under the
 * UTC date (server/domain/tasks.ts periodOf), so a new day starts at 0 by itself, even when this job
 * did not run; the job removes the finished days and the spent one-time tokens. It runs once per
 * UTC day across all processes: job_runs is claimed with one conditional upsert.
 */
import type { Db } from '../db/db.ts';
import { pruneClickBatches } from '../domain/click-batcher.ts';

export const utcDay = (nowMs: number): string => new Date(nowMs).toISOString().slice(0, 10);

/** Turnstile tokens expire after 300 s; their hashes are kept a day to be safe. */
const captchaKeepMs = 24 * 60 * 60 * 1000;

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

/** Claims today's run for `job`; true when this caller is the one to run it. */
export const claimDailyRun = async (db: Db, job: string, nowMs: number, force = false): Promise<boolean> => {
  const r = await db.query(
    `INSERT INTO job_runs (job, last_period, last_run_at_ms) VALUES ($1, $2, $3)
     ON CONFLICT (job) DO UPDATE SET last_period = EXCLUDED.last_period, last_run_at_ms = EXCLUDED.last_run_at_ms
       WHERE $4 OR job_runs.last_period < EXCLUDED.last_period`,
    [job, utcDay(nowMs), nowMs, force],
  );
  return r.rowCount > 0;
};

export const runDailyReset = async (db: Db, nowMs: number, opts: { force?: boolean } = {}): Promise<DailyResetResult> => {
  const day = utcDay(nowMs);
  const none = { day, dailyRowsRemoved: 0, adSessionsRemoved: 0, captchaTokensRemoved: 0, xStatesRemoved: 0, clickBatchesRemoved: 0 };
  if (!(await claimDailyRun(db, 'daily-reset', nowMs, opts.force))) return { ran: false, ...none };
  const clickBatchesRemoved = await pruneClickBatches(db, nowMs);
  return db.transaction(async (tx) => {
    const daily = await tx.query(
      `DELETE FROM task_completions c USING tasks t
        WHERE c.task_id = t.id AND t.is_daily AND c.period <> 'once' AND c.period < $1`,
      [day],
    );
    const ads = await tx.query('DELETE FROM ad_watch_sessions WHERE expires_at_ms < $1', [nowMs - 24 * 60 * 60 * 1000]);
    const captcha = await tx.query('DELETE FROM captcha_tokens_used WHERE used_at_ms < $1', [nowMs - captchaKeepMs]);
    const states = await tx.query('DELETE FROM x_oauth_states WHERE expires_at_ms <= $1', [nowMs]);
    return {
      ran: true,
      day,
      dailyRowsRemoved: daily.rowCount,
      adSessionsRemoved: ads.rowCount,
      captchaTokensRemoved: captcha.rowCount,
      xStatesRemoved: states.rowCount,
      clickBatchesRemoved,
    };
  });
};
