/**
 * The bot's reminders (docs/rules.md §15.4): the profile card's switch, remembered on the server.
 */
import type { Db } from '../core/db/db.ts';
import { transaction } from '../core/db/transaction.ts';
import { loadUser, type UserRow } from '../players/exports.ts';

/** POST /daily/reminders: on or off. Off clears the player's due time, so the job never reads them. */
export const setReminders = (db: Db, userId: number, on: boolean, nowMs: number): Promise<UserRow> =>
  transaction(db, async (tx) => {
    await loadUser(tx, userId, true);
    await tx.query('UPDATE users SET reminders_off = $2 WHERE id = $1', [userId, !on]);
    if (!on) await tx.query('UPDATE daily_reminders SET remind_at_ms = NULL WHERE user_id = $1', [userId]);
    void nowMs;
    return loadUser(tx, userId);
  });
