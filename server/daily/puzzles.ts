/**
 * Each day's combo (three passive cards) and cipher word (docs/rules.md §15.2, §15.3). An operator
 * sets coming days (setDailyPuzzle, with its audit row); a day nobody set is drawn from the server
 * secret, HMAC-SHA256 of the day, so the date alone predicts nothing. A day's row is written the
 * first time it is needed (by the daily-puzzles job ahead of time, or by the first player of the
 * day) and never changes once the day has begun, so a process may keep today's row in memory.
 */
import { createHmac } from 'node:crypto';
import { utcDayOf } from '../../engine/rules/daily.ts';
import { economy, passiveItemKeys } from '../../engine/rules/economy.ts';
import type { Queryable } from '../core/db/db.ts';
import { cipherWords } from './cipher-words.ts';

export interface DailyPuzzle {
  readonly day: number;
  readonly combo: readonly number[];
  readonly cipher: string;
}

/** The server secret the draws are made with (server/daily/settings.ts). */
export type DailySecret = Buffer;

const draw = (secret: DailySecret, label: string): Buffer => createHmac('sha256', secret).update(label).digest();

/** The cards a drawn combo comes from: items 4…12 (economy.dailyComboPoolLastKey). */
export const comboPool: readonly number[] = passiveItemKeys.filter((k) => k <= economy.dailyComboPoolLastKey);

/** The day's drawn combo: three different cards of the pool, a Fisher–Yates shuffle driven by the HMAC. */
export const drawCombo = (secret: DailySecret, day: number): number[] => {
  const bytes = draw(secret, `combo:${day}`);
  const pool = [...comboPool];
  for (let i = 0; i < economy.dailyComboCards; i++) {
    const j = i + (bytes.readUInt32BE(4 * i) % (pool.length - i));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, economy.dailyComboCards);
};

/** The day's drawn cipher word. */
export const drawCipher = (secret: DailySecret, day: number): string => cipherWords[draw(secret, `cipher:${day}`).readUInt32BE(0) % cipherWords.length]!;

interface PuzzleRow {
  combo: number[] | null;
  cipher: string | null;
}

/**
 * Writes the draws into the day's row where nobody set them (an operator's choice is never
 * overwritten) and returns the row: one statement, so racing writers agree.
 */
export const fillPuzzle = async (q: Queryable, secret: DailySecret, day: number, nowMs: number): Promise<DailyPuzzle> => {
  const r = await q.query<PuzzleRow>(
    `INSERT INTO daily_puzzles (day, combo, cipher, updated_at_ms) VALUES ($1, $2::int[], $3, $4)
     ON CONFLICT (day) DO UPDATE SET combo = COALESCE(daily_puzzles.combo, EXCLUDED.combo),
                                     cipher = COALESCE(daily_puzzles.cipher, EXCLUDED.cipher)
       WHERE daily_puzzles.combo IS NULL OR daily_puzzles.cipher IS NULL
     RETURNING combo, cipher`,
    [day, drawCombo(secret, day), drawCipher(secret, day), nowMs],
  );
  const row = r.rows[0] ?? (await q.query<PuzzleRow>('SELECT combo, cipher FROM daily_puzzles WHERE day = $1', [day])).rows[0]!;
  return { day, combo: row.combo!.map(Number), cipher: row.cipher! };
};

/**
 * Today's puzzle, read once per process and day: a row whose day has begun never changes. Used
 * inside the player's transaction (the combo's upgrade hook, the cipher guess).
 */
export const createPuzzleSource = (secret: DailySecret) => {
  const known = new Map<number, DailyPuzzle>();
  return {
    secret,
    /** The puzzle of the UTC day of `nowMs`. */
    async today(q: Queryable, nowMs: number): Promise<DailyPuzzle> {
      const day = utcDayOf(nowMs);
      const cached = known.get(day);
      if (cached !== undefined) return cached;
      const r = await q.query<PuzzleRow>('SELECT combo, cipher FROM daily_puzzles WHERE day = $1', [day]);
      const row = r.rows[0];
      const puzzle =
        row?.combo != null && row.cipher != null ? { day, combo: row.combo.map(Number), cipher: row.cipher } : await fillPuzzle(q, secret, day, nowMs);
      known.clear();
      known.set(day, puzzle);
      return puzzle;
    },
  };
};

export type PuzzleSource = ReturnType<typeof createPuzzleSource>;
