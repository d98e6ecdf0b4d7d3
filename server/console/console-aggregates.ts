/**
 * The operator console's aggregates (docs/admin.md "Dashboard", "Cheat signals"), kept by a job
 * so that no console view scans a player table, and so that the job itself scans none either
 * (docs/scaling.md): its work grows with what happened since its last run.
 * - daily_stats, for today and yesterday (UTC): players in total (the public stats' player counter,
 *   less those who joined since the day ended) and new (users_created_idx), ads watched and
 *   referrals invited and paid that day (range reads on their time indexes);
 * - active players per day and the referral funnel (invited → friend reached $100 → bonus paid):
 *   counters, from the deltas the database's triggers write in the transactions that change them
 *   (migration 0980), folded in here; a fold deletes the deltas it adds, in one statement;
 * - taps per day and cheat_signals: folded in from click_batches incrementally, up to
 *   `lagMs` before now, under a row lock on the job's mark, so concurrent runs never count twice.
 */
import type { Db, Queryable } from '../core/db/db.ts';
import { transaction } from '../core/db/transaction.ts';
import { currentPlayers } from '../leaderboard/exports.ts';

const dayMs = 86_400_000;
/** A click batch committed later than this after its timestamp is not counted (docs/admin.md). */
export const foldLagMs = 60_000;
const clicksMark = 'click_batches';

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Folds click_batches rows in [mark, now - lag) into taps per day and per-player signals. */
const foldClicks = (db: Db, nowMs: number): Promise<number> =>
  transaction(db, async (tx) => {
    await tx.query('INSERT INTO admin_job_marks (job, mark_ms) VALUES ($1, $2) ON CONFLICT (job) DO NOTHING', [clicksMark, nowMs - 7 * dayMs]);
    const m = await tx.query<{ mark_ms: number }>('SELECT mark_ms FROM admin_job_marks WHERE job = $1 FOR UPDATE', [clicksMark]);
    const from = Number(m.rows[0]!.mark_ms);
    const to = nowMs - foldLagMs;
    if (to <= from) return 0;
    await tx.query(
      `INSERT INTO daily_stats AS d (day, taps, updated_at_ms)
       SELECT (to_timestamp(created_at_ms / 1000.0) AT TIME ZONE 'UTC')::date, sum(accepted), $3
         FROM click_batches WHERE created_at_ms >= $1 AND created_at_ms < $2 GROUP BY 1
       ON CONFLICT (day) DO UPDATE SET taps = d.taps + EXCLUDED.taps, updated_at_ms = EXCLUDED.updated_at_ms`,
      [from, to, nowMs],
    );
    const r = await tx.query(
      `INSERT INTO cheat_signals AS c (user_id, clipped_batches, refused_taps, accepted_taps, last_at_ms)
       SELECT user_id, count(*) FILTER (WHERE accepted < requested), sum(requested - accepted), sum(accepted), max(created_at_ms)
         FROM click_batches WHERE created_at_ms >= $1 AND created_at_ms < $2 GROUP BY user_id
       ON CONFLICT (user_id) DO UPDATE SET clipped_batches = c.clipped_batches + EXCLUDED.clipped_batches,
         refused_taps = c.refused_taps + EXCLUDED.refused_taps, accepted_taps = c.accepted_taps + EXCLUDED.accepted_taps,
         last_at_ms = GREATEST(c.last_at_ms, EXCLUDED.last_at_ms)`,
      [from, to],
    );
    await tx.query('UPDATE admin_job_marks SET mark_ms = $2 WHERE job = $1', [clicksMark, to]);
    return r.rowCount;
  });

/** Recomputes one day's range counts (taps, active players and the funnel are folded, not counted here). */
const refreshDay = async (q: Queryable, dayStartMs: number, playersNow: number, nowMs: number): Promise<void> => {
  const end = dayStartMs + dayMs;
  await q.query(
    `INSERT INTO daily_stats AS d (day, total_players, new_players, ads_watched, invited, bonus_paid, updated_at_ms)
     SELECT $1::date,
            $4::bigint - (SELECT count(*) FROM users WHERE created_at_ms >= $3),
            (SELECT count(*) FROM users WHERE created_at_ms >= $2 AND created_at_ms < $3),
            (SELECT count(*) FROM ad_watch_sessions WHERE rewarded_at_ms >= $2 AND rewarded_at_ms < $3 AND rewarded_via <> 'limit'),
            (SELECT count(*) FROM referrals WHERE created_at_ms >= $2 AND created_at_ms < $3),
            (SELECT count(*) FROM referrals WHERE credited_at_ms >= $2 AND credited_at_ms < $3),
            $5
     ON CONFLICT (day) DO UPDATE SET total_players = EXCLUDED.total_players, new_players = EXCLUDED.new_players,
       ads_watched = EXCLUDED.ads_watched, invited = EXCLUDED.invited, bonus_paid = EXCLUDED.bonus_paid, updated_at_ms = EXCLUDED.updated_at_ms`,
    [dayOf(dayStartMs), dayStartMs, end, playersNow, nowMs],
  );
};

/** Folds the console's counter deltas (active players per day, the funnel) in; returns how many were folded. */
export const foldConsoleCounters = async (q: Queryable, nowMs: number): Promise<number> => {
  const r = await q.query<{ folded: number }>(
    `WITH d AS (DELETE FROM console_deltas RETURNING day, active, invited, reached, paid),
     act AS (
       INSERT INTO daily_stats AS s (day, active_players, updated_at_ms)
       SELECT day, sum(active), $1 FROM d WHERE day IS NOT NULL GROUP BY day
       ON CONFLICT (day) DO UPDATE SET active_players = s.active_players + EXCLUDED.active_players, updated_at_ms = EXCLUDED.updated_at_ms
     ), fun AS (
       INSERT INTO console_funnel AS f (id, invited, reached_100, bonus_paid, updated_at_ms)
       SELECT 1, COALESCE(sum(invited), 0), COALESCE(sum(reached), 0), COALESCE(sum(paid), 0), $1 FROM d
       ON CONFLICT (id) DO UPDATE SET invited = f.invited + EXCLUDED.invited, reached_100 = f.reached_100 + EXCLUDED.reached_100,
         bonus_paid = f.bonus_paid + EXCLUDED.bonus_paid, updated_at_ms = EXCLUDED.updated_at_ms
     )
     SELECT count(*)::int AS folded FROM d`,
    [nowMs],
  );
  return r.rows[0]?.folded ?? 0;
};

/**
 * Recomputes the counters from scratch (active players of today, the funnel) in one statement
 * with the deletion of the deltas they include: after a bulk load with triggers off, or to check them.
 */
export const rebuildConsoleCounters = async (q: Queryable, nowMs: number): Promise<void> => {
  const todayStart = Math.floor(nowMs / dayMs) * dayMs;
  await q.query(
    `WITH d AS (DELETE FROM console_deltas RETURNING 1),
     act AS (
       INSERT INTO daily_stats AS s (day, active_players, updated_at_ms)
       SELECT $2::date, count(*), $1 FROM users WHERE last_active_ms >= $3
       ON CONFLICT (day) DO UPDATE SET active_players = EXCLUDED.active_players, updated_at_ms = EXCLUDED.updated_at_ms
     )
     INSERT INTO console_funnel AS f (id, invited, reached_100, bonus_paid, updated_at_ms)
     SELECT 1, count(*), count(*) FILTER (WHERE clicked_at_ms IS NOT NULL OR status = 'credited'), count(*) FILTER (WHERE status = 'credited'), $1
     FROM referrals
     ON CONFLICT (id) DO UPDATE SET invited = EXCLUDED.invited, reached_100 = EXCLUDED.reached_100, bonus_paid = EXCLUDED.bonus_paid,
       updated_at_ms = EXCLUDED.updated_at_ms`,
    [nowMs, dayOf(todayStart), todayStart],
  );
};

export interface ConsoleAggregatesResult {
  playersFolded: number;
  countersFolded: number;
}

/** One run of the console job (registered with the scheduler; also callable from tests). */
export const refreshConsoleAggregates = async (db: Db, nowMs: number): Promise<ConsoleAggregatesResult> => {
  const todayStart = Math.floor(nowMs / dayMs) * dayMs;
  const countersFolded = await foldConsoleCounters(db, nowMs);
  const players = await currentPlayers(db);
  await refreshDay(db, todayStart - dayMs, players, nowMs);
  await refreshDay(db, todayStart, players, nowMs);
  const playersFolded = await foldClicks(db, nowMs);
  return { playersFolded, countersFolded };
};
