/**
 * When the bot may remind a player, and of what (docs/rules.md §15.4): a pure rule over what the
 * database holds of them, so the job and its tests share it and time is an argument.
 *
 * - Reasons, most urgent first: the streak is about to be lost (claimed yesterday, not today), the
 *   passive income has reached its 3-hour cap (§9), the energy is full.
 * - Only once the player has been away an hour (REMINDERS_AWAY_MS, `awayMs`); at most one reminder a UTC day; a state (energy
 *   full, income capped) is reminded once, not every day it lasts; a streak reminder leaves an hour
 *   before UTC midnight at the latest, or not at all.
 * - Never at night for the player: Telegram gives no time zone, so the player's day is the clock
 *   hours (UTC) they have been active in. An hour is awake when the three hours around it hold at
 *   least a sixteenth of their active hours; a reminder due in a quiet hour waits for the next awake one.
 */
import { dayStartMs, utcDayOf } from '../../engine/rules/daily.ts';
import { economy } from '../../engine/rules/economy.ts';

export type ReminderReason = 'streak' | 'passive' | 'energy';

const hourMs = 3_600_000;

export interface ReminderFacts {
  /** The last moment the player was seen (a status, a claim, a tap). */
  lastActiveMs: number;
  /** When the energy is (or was) full again. */
  energyFullAtMs: number;
  /** When the passive income reaches its cap, or null without passive income. */
  passiveCapAtMs: number | null;
  /** The day of the last streak claim (0 = never). */
  streakDay: number;
  remindedDay: number;
  remindedAtMs: number;
  /** 24 counts by UTC hour: the hours the player has been active in. */
  activeHours: readonly number[];
}

export type ReminderDecision = { send: ReminderReason } | { nextAtMs: number | null };

/** True when `hour` (0–23, UTC) is in the player's day. */
export const isAwakeHour = (activeHours: readonly number[], hour: number): boolean => {
  const total = activeHours.reduce((a, b) => a + b, 0);
  if (total === 0) return false;
  const around = activeHours[(hour + 23) % 24]! + activeHours[hour]! + activeHours[(hour + 1) % 24]!;
  return around * economy.reminderAwakeShareDen >= total;
};

/** The first moment at or after `ms` in an awake hour, or null when the player has none. */
export const nextAwakeMs = (activeHours: readonly number[], ms: number): number | null => {
  for (let i = 0; i < 24; i++) {
    const at = i === 0 ? ms : Math.floor(ms / hourMs) * hourMs + i * hourMs;
    if (isAwakeHour(activeHours, new Date(at).getUTCHours())) return at;
  }
  return null;
};

interface Candidate {
  reason: ReminderReason;
  atMs: number;
}

/**
 * Whether to remind now (and of what), or when to look again (null: nothing is coming); `awayMs`
 * is how long the player must have been away (an hour unless REMINDERS_AWAY_MS says otherwise).
 */
export const decideReminder = (f: ReminderFacts, nowMs: number, awayMs: number = economy.reminderAwayMs): ReminderDecision => {
  const today = utcDayOf(nowMs);
  const earliest = Math.max(f.lastActiveMs + awayMs, f.remindedDay >= today ? dayStartMs(f.remindedDay + 1) : 0);
  const candidates: Candidate[] = [];
  const add = (reason: ReminderReason, dueMs: number, deadlineMs: number) => {
    // Never before now: a moment that passed while the job was away is the next awake one from now.
    const at = nextAwakeMs(f.activeHours, Math.max(dueMs, earliest, nowMs));
    if (at !== null && at <= deadlineMs) candidates.push({ reason, atMs: at });
  };
  // The streak of a claim on day D is lost when D + 2 begins: remind during D + 1, an hour before its end at the latest.
  if (f.streakDay > 0) {
    const riskDay = f.streakDay + 1;
    if (riskDay >= today && f.remindedDay < riskDay) add('streak', dayStartMs(riskDay), dayStartMs(riskDay + 1) - economy.reminderStreakMarginMs);
  }
  // A state that began after the last reminder: reminded once.
  if (f.passiveCapAtMs !== null && f.passiveCapAtMs > f.remindedAtMs) add('passive', f.passiveCapAtMs, Number.POSITIVE_INFINITY);
  if (f.energyFullAtMs > f.remindedAtMs) add('energy', f.energyFullAtMs, Number.POSITIVE_INFINITY);
  const due = candidates.filter((c) => c.atMs <= nowMs);
  // Candidates were added most urgent first.
  if (due.length > 0) return { send: due[0]!.reason };
  return { nextAtMs: candidates.length === 0 ? null : Math.min(...candidates.map((c) => c.atMs)) };
};
