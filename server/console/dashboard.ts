/** The dashboard's read: the last days of daily_stats and the funnel row, both kept by the console job. */
import type { Dashboard } from '../../engine/wire/admin-types.ts';
import type { Queryable } from '../core/db/db.ts';

export const dashboardDays = 30;

export const readDashboard = async (q: Queryable): Promise<Dashboard> => {
  const days = await q.query<Record<string, number | string>>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, total_players, new_players, active_players, taps, ads_watched, invited, bonus_paid, updated_at_ms
       FROM daily_stats ORDER BY day DESC LIMIT $1`,
    [dashboardDays],
  );
  const f = await q.query<{ invited: number; reached_100: number; bonus_paid: number; updated_at_ms: number }>('SELECT * FROM console_funnel WHERE id = 1');
  const funnel = f.rows[0];
  const n = (v: unknown) => Number(v ?? 0);
  return {
    days: days.rows.reverse().map((r) => ({
      day: String(r.day),
      totalPlayers: n(r.total_players),
      newPlayers: n(r.new_players),
      activePlayers: n(r.active_players),
      taps: n(r.taps),
      adsWatched: n(r.ads_watched),
      invited: n(r.invited),
      bonusPaid: n(r.bonus_paid),
    })),
    funnel: { invited: n(funnel?.invited), reached100: n(funnel?.reached_100), bonusPaid: n(funnel?.bonus_paid) },
    updatedAtMs: funnel === undefined ? null : n(funnel.updated_at_ms),
  };
};
