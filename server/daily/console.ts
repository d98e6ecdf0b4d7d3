/**
 * The daily loop in the console (docs/admin.md "Daily"): each day's combo and word with who chose
 * them, and its finds, claims and reminders; operators set coming days. Setting is an operator
 * action: it takes its actor and writes its audit row in its own transaction.
 */
import type { AdminDailyDay, DailyCounts, DailyPuzzleInput } from '../../engine/wire/admin-types.ts';
import { dayOfIso, isoDay, utcDayOf } from '../../engine/rules/daily.ts';
import { economy, firstItemKey, lastItemKey } from '../../engine/rules/economy.ts';
import type { Db, Queryable } from '../core/db/db.ts';
import { transaction } from '../core/db/transaction.ts';
import { refuse } from '../core/errors.ts';
import { auditAdminId, recordAudit, type Actor } from '../audit/exports.ts';
import { drawCipher, drawCombo, type DailySecret } from './puzzles.ts';

/** How far ahead an operator may set a day. */
export const dailyMaxDaysAhead = 60;
/** The most days one console read lists. */
export const dailyMaxDaysListed = 62;

interface PuzzleRow {
  day: number;
  combo: number[] | null;
  combo_set_by: string | number | null;
  cipher: string | null;
  cipher_set_by: string | number | null;
}

const noCounts: DailyCounts = { streakClaims: 0, comboFinds: 0, comboWins: 0, cipherWins: 0, cipherMisses: 0, remindersQueued: 0, remindersBlocked: 0 };

/** The days from `from` (YYYY-MM-DD) on, `days` of them: two index range reads, whatever the number of players. */
export const listDailyDays = async (q: Queryable, secret: DailySecret, from: number, days: number, nowMs: number): Promise<AdminDailyDay[]> => {
  const to = from + days - 1;
  const today = utcDayOf(nowMs);
  const puzzles = await q.query<PuzzleRow>('SELECT day, combo, combo_set_by, cipher, cipher_set_by FROM daily_puzzles WHERE day BETWEEN $1 AND $2', [from, to]);
  const counts = await q.query<{ day: number } & Record<string, string>>(
    `SELECT day, sum(streak_claims)::text AS "streakClaims", sum(combo_finds)::text AS "comboFinds", sum(combo_wins)::text AS "comboWins",
            sum(cipher_wins)::text AS "cipherWins", sum(cipher_misses)::text AS "cipherMisses",
            sum(reminders_queued)::text AS "remindersQueued", sum(reminders_blocked)::text AS "remindersBlocked"
       FROM daily_counts WHERE day BETWEEN $1 AND $2 GROUP BY day`,
    [from, to],
  );
  const puzzleOf = new Map(puzzles.rows.map((r) => [Number(r.day), r]));
  const countsOf = new Map(counts.rows.map((r) => [Number(r.day), r]));
  const setBy = (v: string | number | null) => (v === null ? null : String(v));
  return Array.from({ length: days }, (_, i) => {
    const day = from + i;
    const p = puzzleOf.get(day);
    const c = countsOf.get(day);
    return {
      day: isoDay(day),
      state: day < today ? 'past' : day === today ? 'today' : 'coming',
      // A day nobody set shows what the server will draw for it (the draw is fixed by the secret).
      combo: p?.combo != null ? p.combo.map(Number) : drawCombo(secret, day),
      comboSetBy: setBy(p?.combo_set_by ?? null),
      cipher: p?.cipher ?? drawCipher(secret, day),
      cipherSetBy: setBy(p?.cipher_set_by ?? null),
      counts: c === undefined ? noCounts : (Object.fromEntries(Object.keys(noCounts).map((k) => [k, Number(c[k] ?? 0)])) as unknown as DailyCounts),
    };
  });
};

/** Checks a day to set (YYYY-MM-DD, a coming day, at most 60 days ahead); refuses naming `day`. */
export const comingDayOf = (text: string, nowMs: number): number => {
  const day = dayOfIso(text);
  if (day === null) throw refuse('dailyDayFormat', { field: 'day' });
  const today = utcDayOf(nowMs);
  if (day <= today) throw refuse('dailyDayBegun', { field: 'day', values: { day: text } });
  if (day > today + dailyMaxDaysAhead) throw refuse('dailyDayTooFar', { field: 'day', values: { max: dailyMaxDaysAhead } });
  return day;
};

/** Checks what an operator sets: three different passive cards, a word of 1–12 letters (any case), or null to go back to the draw. */
export const parsePuzzleInput = (input: DailyPuzzleInput): { combo?: number[] | null; cipher?: string | null } => {
  const out: { combo?: number[] | null; cipher?: string | null } = {};
  if (input.combo !== undefined) {
    const c = input.combo;
    const cards = c === null ? null : c.filter((k) => Number.isInteger(k) && k >= firstItemKey && k <= lastItemKey);
    if (c !== null && (cards!.length !== economy.dailyComboCards || c.length !== economy.dailyComboCards || new Set(cards).size !== economy.dailyComboCards))
      throw refuse('dailyComboCards', { field: 'combo', values: { count: economy.dailyComboCards, first: firstItemKey, last: lastItemKey } });
    out.combo = cards;
  }
  if (input.cipher !== undefined) {
    const w = input.cipher;
    const re = new RegExp(`^[A-Za-z]{1,${economy.dailyCipherMaxLetters}}$`);
    if (w !== null && !re.test(w)) throw refuse('dailyCipherWord', { field: 'cipher', values: { max: economy.dailyCipherMaxLetters } });
    out.cipher = w === null ? null : w.toUpperCase();
  }
  if (out.combo === undefined && out.cipher === undefined) throw refuse('dailyPuzzleEmpty');
  return out;
};

/**
 * Sets a coming day's combo, word or both (null goes back to the server's draw), with its audit row
 * (`daily.set`, the day as target, before and after) in the same transaction. The day is checked
 * against the clock inside the transaction, so a day that has begun is never changed.
 */
export const setDailyPuzzle = (db: Db, secret: DailySecret, actor: Actor, dayText: string, input: DailyPuzzleInput, nowMs: number): Promise<AdminDailyDay> => {
  const day = comingDayOf(dayText, nowMs);
  const change = parsePuzzleInput(input);
  const adminId = auditAdminId(actor);
  return transaction(db, async (tx) => {
    await tx.query('INSERT INTO daily_puzzles (day, updated_at_ms) VALUES ($1, $2) ON CONFLICT (day) DO NOTHING', [day, nowMs]);
    const before = (await tx.query<PuzzleRow>('SELECT day, combo, combo_set_by, cipher, cipher_set_by FROM daily_puzzles WHERE day = $1 FOR UPDATE', [day])).rows[0]!;
    const combo = change.combo === undefined ? before.combo : change.combo;
    const comboBy = change.combo === undefined ? before.combo_set_by : change.combo === null ? null : adminId;
    const cipher = change.cipher === undefined ? before.cipher : change.cipher;
    const cipherBy = change.cipher === undefined ? before.cipher_set_by : change.cipher === null ? null : adminId;
    await tx.query('UPDATE daily_puzzles SET combo = $2::int[], combo_set_by = $3, cipher = $4, cipher_set_by = $5, updated_at_ms = $6 WHERE day = $1', [
      day, combo, comboBy, cipher, cipherBy, nowMs,
    ]);
    await recordAudit(tx, {
      actor,
      action: 'daily.set',
      target: `daily:${isoDay(day)}`,
      before: { combo: before.combo?.map(Number) ?? null, cipher: before.cipher },
      after: { combo: combo?.map(Number) ?? null, cipher },
      nowMs,
    });
    return (await listDailyDays(tx, secret, day, 1, nowMs))[0]!;
  });
};
