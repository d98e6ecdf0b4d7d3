/**
 * The tasks feature's share of the daily reset (server/background/daily-reset.ts): daily tasks keep
 * their progress under the UTC date (tasks.ts periodOf), so a new day starts at 0 by itself; this
 * removes the finished days' rows, the expired ad watches and the spent Turnstile tokens.
 */
import type { Queryable } from '../core/db/db.ts';

const dayMs = 24 * 60 * 60 * 1000;
/** Turnstile tokens expire after 300 s; their hashes are kept a day to be safe. */
const captchaKeepMs = dayMs;

export interface TasksPruned {
  dailyRowsRemoved: number;
  adSessionsRemoved: number;
  captchaTokensRemoved: number;
}

/** In the caller's transaction: the rows of daily tasks before `day`, ad watches expired a day ago, tokens spent a day ago. */
export const pruneTaskHistory = async (tx: Queryable, day: string, nowMs: number): Promise<TasksPruned> => {
  const daily = await tx.query(
    `DELETE FROM task_completions c USING tasks t
      WHERE c.task_id = t.id AND t.is_daily AND c.period <> 'once' AND c.period < $1`,
    [day],
  );
  const ads = await tx.query('DELETE FROM ad_watch_sessions WHERE expires_at_ms < $1', [nowMs - dayMs]);
  const captcha = await tx.query('DELETE FROM captcha_tokens_used WHERE used_at_ms < $1', [nowMs - captchaKeepMs]);
  return { dailyRowsRemoved: daily.rowCount, adSessionsRemoved: ads.rowCount, captchaTokensRemoved: captcha.rowCount };
};
