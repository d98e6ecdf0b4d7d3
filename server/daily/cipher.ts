/**
 * The daily cipher (docs/rules.md §15.3): one word a UTC day, entered in Morse on the coin. The
 * server compares the letters and pays once a day. A wrong guess is counted on the player's row (at
 * most economy.dailyCipherGuessesPerDay a day, then refused until tomorrow) and answered with
 * `correct: false` only: never the word, its length or the letters that matched.
 */
import { isoDay, utcDayOf } from '../../engine/rules/daily.ts';
import { economy } from '../../engine/rules/economy.ts';
import type { Db } from '../core/db/db.ts';
import { transaction } from '../core/db/transaction.ts';
import { refuse } from '../core/errors.ts';
import { creditMoney, loadUser, type UserRow } from '../players/exports.ts';
import { countDaily } from './counts.ts';
import type { PuzzleSource } from './puzzles.ts';

export interface CipherOutcome {
  correct: boolean;
  claimed: string;
  row: UserRow;
}

/** POST /daily/cipher: a guess of today's word (letters A–Z, any case). */
export const guessCipher = (db: Db, puzzles: PuzzleSource, userId: number, word: string, nowMs: number): Promise<CipherOutcome> =>
  transaction(db, async (tx) => {
    const row = await loadUser(tx, userId, true);
    const today = utcDayOf(nowMs);
    const isToday = row.daily_cipher_day === today;
    if (isToday && row.daily_cipher_solved === true) throw refuse('dailyCipherSolved', { field: 'word' });
    const misses = isToday ? (row.daily_cipher_misses ?? 0) : 0;
    if (misses >= economy.dailyCipherGuessesPerDay) throw refuse('dailyCipherLimit', { field: 'word' });
    const puzzle = await puzzles.today(tx, nowMs);
    const correct = word.toUpperCase() === puzzle.cipher;
    await tx.query('UPDATE users SET daily_cipher_day = $2, daily_cipher_solved = $3, daily_cipher_misses = $4 WHERE id = $1', [
      userId,
      today,
      correct,
      correct ? misses : misses + 1,
    ]);
    await countDaily(tx, today, userId, correct ? 'cipher_wins' : 'cipher_misses');
    const claimed = correct
      ? await creditMoney(tx, { userId, amount: economy.dailyCipherRewardMoney, kind: 'daily-cipher', reference: `cipher:${isoDay(today)}`, nowMs })
      : '0';
    return { correct, claimed, row: await loadUser(tx, userId) };
  });
