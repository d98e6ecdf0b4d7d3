/**
 * Settling the wallet forecast (§1, §9: 7,777 MONEY for a right guess; docs/admin.md "Forecast").
 * A forecast of N days made on UTC day D is right when D + N is the wallet's real launch day. The
 * launch day is set once; each right guess is paid once (forecasts.prize_paid_at_ms), through
 * the ledger, with the referrer's 5 % share as for any MONEY claim. Settling again pays nothing more.
 */
import type { ForecastSettlement } from '../../engine/wire/admin-types.ts';
import { economy } from '../../engine/rules/economy.ts';
import type { Db } from '../core/db/db.ts';
import { refuse } from '../core/errors.ts';
import { transaction } from '../core/db/transaction.ts';
import { recordAudit, type Actor } from '../audit/exports.ts';
import { creditMoney } from '../players/exports.ts';

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;
// Each batch is its own transaction, so a large settlement never holds one huge transaction.
const batchSize = 500;

/** Checks a launch day: a real calendar date (YYYY-MM-DD) of year 1 or later, not after today (UTC, server clock). */
export const parseLaunchDay = (value: unknown, nowMs: number): string => {
  if (typeof value !== 'string' || !dayPattern.test(value)) throw refuse('launchDayFormat', { field: 'launchDay' });
  const d = new Date(`${value}T00:00:00Z`);
  // JavaScript has a year 0 (1 BC); PostgreSQL's calendar, like the Gregorian one, has none.
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value || d.getUTCFullYear() < 1) throw refuse('launchDayNotCalendar', { field: 'launchDay' });
  // A future day would tell players the answer while they can still guess.
  if (value > new Date(nowMs).toISOString().slice(0, 10)) throw refuse('launchDayInFuture', { field: 'launchDay' });
  return value;
};

/** The settlement's `settled_by`: `admin:<id>` or `api-key`. */
const settledByOf = (actor: Actor): string => (actor.kind === 'console' ? `admin:${actor.adminId}` : 'api-key');

/**
 * The forecast settlement, the one door of the console and the operator API: checks the launch
 * day, sets it (once; a different day later is a 409) and pays every unpaid right guess in bounded
 * batches. The last batch's transaction also writes the audit row with the result, so the record
 * commits with the payouts it reports and an action that fails leaves none; calling again with the
 * same day finishes what a failure left (idempotent).
 */
export const settleForecast = async (db: Db, actor: Actor, launchDayInput: unknown, nowMs: number): Promise<ForecastSettlement> => {
  const launchDay = parseLaunchDay(launchDayInput, nowMs);
  const setting = await transaction(db, async (tx) => {
    await tx.query(
      `INSERT INTO forecast_settlement (id, launch_day, settled_by, settled_at_ms) VALUES (1, $1::date, $2, $3) ON CONFLICT (id) DO NOTHING`,
      [launchDay, settledByOf(actor), nowMs],
    );
    const r = await tx.query<{ day: string; settled_at_ms: number }>(`SELECT to_char(launch_day, 'YYYY-MM-DD') AS day, settled_at_ms FROM forecast_settlement WHERE id = 1`);
    return r.rows[0]!;
  });
  if (setting.day !== launchDay) throw refuse('launchDaySet', { field: 'launchDay', values: { day: setting.day } });

  let paid = 0;
  for (;;) {
    const done = await transaction(db, async (tx): Promise<ForecastSettlement | number> => {
      const r = await tx.query<{ user_id: number }>(
        `UPDATE forecasts f SET prize_paid_at_ms = $2
          WHERE f.user_id IN (
            SELECT user_id FROM forecasts
             WHERE prize_paid_at_ms IS NULL
               AND (to_timestamp(created_at_ms / 1000.0) AT TIME ZONE 'UTC')::date + days = $1::date
             ORDER BY user_id LIMIT $3 FOR UPDATE SKIP LOCKED)
          RETURNING f.user_id`,
        [launchDay, nowMs, batchSize],
      );
      for (const { user_id } of r.rows)
        await creditMoney(tx, { userId: Number(user_id), amount: economy.forecastPrizeMoney, kind: 'forecast', reference: `forecast:${launchDay}`, nowMs });
      if (r.rows.length === batchSize) return r.rows.length;
      const total = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM forecasts WHERE prize_paid_at_ms IS NOT NULL');
      const result = { launchDay, settledAtMs: Number(setting.settled_at_ms), paid: paid + r.rows.length, paidTotal: Number(total.rows[0]!.n) };
      await recordAudit(tx, { actor, action: 'forecast.settle', target: `forecast:${launchDay}`, after: result, nowMs });
      return result;
    });
    if (typeof done !== 'number') return done;
    paid += done;
  }
};

/** The settlement, if any. */
export const forecastSettlement = async (db: Db): Promise<{ launchDay: string; settledAtMs: number; settledBy: string; paidTotal: number; forecasts: number } | null> => {
  const r = await db.query<{ day: string; settled_at_ms: number; settled_by: string }>(
    `SELECT to_char(launch_day, 'YYYY-MM-DD') AS day, settled_at_ms, settled_by FROM forecast_settlement WHERE id = 1`,
  );
  const row = r.rows[0];
  if (row === undefined) return null;
  const c = await db.query<{ paid: number; total: number }>('SELECT count(*) FILTER (WHERE prize_paid_at_ms IS NOT NULL)::int AS paid, count(*)::int AS total FROM forecasts');
  return { launchDay: row.day, settledAtMs: Number(row.settled_at_ms), settledBy: row.settled_by, paidTotal: c.rows[0]!.paid, forecasts: c.rows[0]!.total };
};
