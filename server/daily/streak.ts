/**
 * The daily streak (docs/rules.md §15.1): one claim a UTC day on a rising calendar; a missed day
 * starts it again. The claim is one conditional write on the player's locked row, so a replay or a
 * race is paid once, and the MONEY goes through the ledger with the referrer's 5 %.
 */
import { isoDay, streakAfterClaim, streakRewardMoney, utcDayOf } from '../../engine/rules/daily.ts';
import type { Db } from '../core/db/db.ts';
import { transaction } from '../core/db/transaction.ts';
import { refuse } from '../core/errors.ts';
import { creditMoney, loadUser, type UserRow } from '../players/exports.ts';
import { countDaily } from './counts.ts';
import { rescheduleReminder } from './reminders.ts';

/** POST /daily/streak: today's calendar reward, once a day. */
export const claimStreak = (db: Db, userId: number, nowMs: number, awayMs: number): Promise<{ claimed: string; row: UserRow }> =>
  transaction(db, async (tx) => {
    const row = await loadUser(tx, userId, true);
    const today = utcDayOf(nowMs);
    const days = streakAfterClaim({ lastDay: Number(row.daily_streak_day ?? 0), count: row.daily_streak_count ?? 0 }, today);
    if (days === null) throw refuse('dailyStreakClaimed');
    // The condition repeats the read's, so a row changed since (it cannot be: it is locked) pays nothing.
    const r = await tx.query('UPDATE users SET daily_streak_day = $2, daily_streak_count = $3 WHERE id = $1 AND daily_streak_day < $2', [userId, today, days]);
    if (r.rowCount !== 1) throw refuse('dailyStreakClaimed');
    const claimed = await creditMoney(tx, { userId, amount: streakRewardMoney(days), kind: 'daily-streak', reference: `streak:${isoDay(today)}`, nowMs });
    await countDaily(tx, today, userId, 'streak_claims');
    // Tomorrow this streak can be lost: the reminder's due moment may now be sooner (§15.4).
    await rescheduleReminder(tx, userId, nowMs, awayMs);
    return { claimed, row: await loadUser(tx, userId) };
  });
