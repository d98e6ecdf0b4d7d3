/**
 * The upgrade action's one call into the daily loop (server/boosts/ calls it in its transaction,
 * with the player's row locked): the upgrade may find a combo card (docs/rules.md §15.2), and a
 * passive card's new income may make a reminder due sooner (§15.4).
 */
import { firstItemKey } from '../../engine/rules/economy.ts';
import type { Queryable } from '../core/db/db.ts';
import { noteComboUpgrade } from './combo.ts';
import type { PuzzleSource } from './puzzles.ts';
import { rescheduleReminder } from './reminders.ts';

/** Returns the MONEY the combo paid ('0' when nothing); `reminderAwayMs` is REMINDERS_AWAY_MS. */
export const noteUpgrade = async (tx: Queryable, puzzles: PuzzleSource, userId: number, key: number, nowMs: number, reminderAwayMs: number): Promise<string> => {
  const paid = await noteComboUpgrade(tx, puzzles, userId, key, nowMs);
  if (key >= firstItemKey) await rescheduleReminder(tx, userId, nowMs, reminderAwayMs);
  return paid;
};
