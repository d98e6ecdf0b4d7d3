/**
 * The public stats (§3: totalClick, totalPaticipant, totalEarn) as one cached row, refreshed by a
 * job so that the landing page's hourly poll never scans the users table.
 */
import type { PublicStats } from '../../engine/api-types.ts';
import { toWire } from '../../engine/money.ts';
import type { Queryable } from '../core/db/db.ts';

/** Recomputes the stats from users and stores them; returns what was stored. */
export const refreshStatsCache = async (db: Queryable, nowMs: number): Promise<PublicStats> => {
  const r = await db.query<{ total_click: number; total_paticipant: number; total_earn: string }>(
    `INSERT INTO stats_cache (id, total_click, total_paticipant, total_earn, refreshed_at_ms)
     SELECT 1, COALESCE(sum(total_click), 0), count(*), COALESCE(sum(total_earn), 0), $1 FROM users
     ON CONFLICT (id) DO UPDATE SET total_click = EXCLUDED.total_click, total_paticipant = EXCLUDED.total_paticipant,
       total_earn = EXCLUDED.total_earn, refreshed_at_ms = EXCLUDED.refreshed_at_ms
     RETURNING total_click, total_paticipant, total_earn`,
    [nowMs],
  );
  const row = r.rows[0]!;
  return { totalClick: Number(row.total_click), totalPaticipant: Number(row.total_paticipant), totalEarn: toWire(row.total_earn) };
};

/** The cached stats and when they were computed; null before the first refresh. */
export const readStatsCache = async (db: Queryable): Promise<(PublicStats & { refreshedAtMs: number }) | null> => {
  const r = await db.query<{ total_click: number; total_paticipant: number; total_earn: string; refreshed_at_ms: number }>(
    'SELECT total_click, total_paticipant, total_earn, refreshed_at_ms FROM stats_cache WHERE id = 1',
  );
  const row = r.rows[0];
  if (row === undefined) return null;
  return { totalClick: Number(row.total_click), totalPaticipant: Number(row.total_paticipant), totalEarn: toWire(row.total_earn), refreshedAtMs: Number(row.refreshed_at_ms) };
};
