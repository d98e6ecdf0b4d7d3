/**
 * The daily combo (docs/rules.md §15.2): three of the 18 passive cards each day. A player who
 * upgrades all three during that UTC day is paid once. The upgrade action (server/boosts/) calls
 * it (through noteUpgrade) inside its own transaction, with the player's row locked, so a card is
 * found once and the reward is paid once however upgrades race.
 */
import { isoDay, utcDayOf } from '../../engine/rules/daily.ts';
import { economy, firstItemKey } from '../../engine/rules/economy.ts';
import type { Queryable } from '../core/db/db.ts';
import { creditMoney } from '../players/exports.ts';
import { countDaily } from './counts.ts';
import type { PuzzleSource } from './puzzles.ts';

/**
 * The upgrade of `key` by `userId` at `nowMs` was applied in `tx`: when the card is in today's
 * combo and not yet found, it is found; the third find pays the combo. Returns the MONEY paid ('0'
 * when nothing). A card outside the combo writes nothing, so the answer tells nothing new.
 */
export const noteComboUpgrade = async (tx: Queryable, puzzles: PuzzleSource, userId: number, key: number, nowMs: number): Promise<string> => {
  if (key < firstItemKey) return '0';
  const puzzle = await puzzles.today(tx, nowMs);
  if (!puzzle.combo.includes(key)) return '0';
  const today = utcDayOf(nowMs);
  const r = await tx.query<{ found: number }>(
    `UPDATE users SET daily_combo_found = CASE WHEN daily_combo_day = $2 THEN array_append(daily_combo_found, $3::int) ELSE ARRAY[$3::int] END,
                      daily_combo_day = $2
      WHERE id = $1 AND NOT (daily_combo_day = $2 AND $3::int = ANY (daily_combo_found))
      RETURNING cardinality(daily_combo_found) AS found`,
    [userId, today, key],
  );
  const found = r.rows[0]?.found;
  if (found === undefined) return '0';
  await countDaily(tx, today, userId, 'combo_finds');
  if (Number(found) !== economy.dailyComboCards) return '0';
  await countDaily(tx, today, userId, 'combo_wins');
  return creditMoney(tx, { userId, amount: economy.dailyComboRewardMoney, kind: 'daily-combo', reference: `combo:${isoDay(today)}`, nowMs });
};
