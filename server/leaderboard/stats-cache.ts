/**
 * The public stats (§3: totalClick, totalPaticipant, totalEarn) as one row, `stats_cache`, so the
 * landing page's hourly poll never scans the users table. The row is a set of counters: every
 * statement that changes one of them writes its change to `stats_deltas` in its own transaction
 * (a player joining and a DOLLAR ledger row by trigger, a click group's taps and dollars by its
 * write; migration 0980), and the stats job folds the deltas in. A fold costs what was played
 * since the last one, never what exists (docs/scaling.md "Public stats").
 */
import type { PublicStats } from '../../engine/wire/api-types.ts';
import { toWire } from '../../engine/rules/money.ts';
import type { Queryable } from '../core/db/db.ts';

type StatsRow = { total_click: number; total_paticipant: number; total_earn: string };
const statsOf = (row: StatsRow): PublicStats => ({ totalClick: Number(row.total_click), totalPaticipant: Number(row.total_paticipant), totalEarn: toWire(row.total_earn) });

/**
 * Folds the deltas written since the last fold into the row, and returns it. Deleting the deltas
 * and adding their sum is one statement: a delta is added exactly once, by whichever fold deleted
 * it; one committed after the statement's snapshot waits for the next fold. Without the row
 * (migration 0980 writes it; only a hand deletes it) the deltas alone would be wrong: it is
 * counted from scratch instead.
 */
export const refreshStatsCache = async (db: Queryable, nowMs: number): Promise<PublicStats> => {
  if ((await db.query('SELECT 1 FROM stats_cache WHERE id = 1')).rows.length === 0) return rebuildStatsCache(db, nowMs);
  const r = await db.query<StatsRow>(
    `WITH d AS (DELETE FROM stats_deltas RETURNING players, clicks, earn)
     INSERT INTO stats_cache AS s (id, total_click, total_paticipant, total_earn, refreshed_at_ms)
     SELECT 1, COALESCE(sum(clicks), 0), COALESCE(sum(players), 0), COALESCE(sum(earn), 0), $1 FROM d
     ON CONFLICT (id) DO UPDATE SET total_click = s.total_click + EXCLUDED.total_click, total_paticipant = s.total_paticipant + EXCLUDED.total_paticipant,
       total_earn = s.total_earn + EXCLUDED.total_earn, refreshed_at_ms = EXCLUDED.refreshed_at_ms
     RETURNING total_click, total_paticipant, total_earn`,
    [nowMs],
  );
  return statsOf(r.rows[0]!);
};

/**
 * Recomputes the row from scratch (a scan of users): after a bulk load with triggers off, or to
 * check the counters. The scan and the deletion of the deltas it includes are one statement, one
 * snapshot: a delta committed later is not in the scan and stays to be folded.
 */
export const rebuildStatsCache = async (db: Queryable, nowMs: number): Promise<PublicStats> => {
  const r = await db.query<StatsRow>(
    `WITH d AS (DELETE FROM stats_deltas RETURNING 1)
     INSERT INTO stats_cache AS s (id, total_click, total_paticipant, total_earn, refreshed_at_ms)
     SELECT 1, COALESCE(sum(total_click), 0), count(*), COALESCE(sum(total_earn), 0), $1 FROM users
     ON CONFLICT (id) DO UPDATE SET total_click = EXCLUDED.total_click, total_paticipant = EXCLUDED.total_paticipant,
       total_earn = EXCLUDED.total_earn, refreshed_at_ms = EXCLUDED.refreshed_at_ms
     RETURNING total_click, total_paticipant, total_earn`,
    [nowMs],
  );
  return statsOf(r.rows[0]!);
};

/** The number of players now, deltas not yet folded included (one statement: exact at its snapshot). */
export const currentPlayers = async (q: Queryable): Promise<number> => {
  const r = await q.query<{ n: number }>(
    'SELECT ((SELECT COALESCE(sum(total_paticipant), 0) FROM stats_cache) + (SELECT COALESCE(sum(players), 0) FROM stats_deltas))::bigint AS n',
  );
  return Number(r.rows[0]!.n);
};

/**
 * The stats now: the row plus the deltas not folded yet (one statement, so exact at its snapshot),
 * and when the row was last folded; null when the row is missing. The deltas are what was written
 * since the last fold (one row a click group statement), so the read stays small while the job runs.
 */
export const readStatsCache = async (db: Queryable): Promise<(PublicStats & { refreshedAtMs: number }) | null> => {
  const r = await db.query<StatsRow & { refreshed_at_ms: number }>(
    `SELECT s.total_click + d.c AS total_click, s.total_paticipant + d.p AS total_paticipant, s.total_earn + d.e AS total_earn, s.refreshed_at_ms
     FROM stats_cache s, (SELECT COALESCE(sum(clicks), 0) AS c, COALESCE(sum(players), 0) AS p, COALESCE(sum(earn), 0) AS e FROM stats_deltas) d
     WHERE s.id = 1`,
  );
  const row = r.rows[0];
  if (row === undefined) return null;
  return { ...statsOf(row), refreshedAtMs: Number(row.refreshed_at_ms) };
};
