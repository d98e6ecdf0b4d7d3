/**
 * The daily loop's rules (docs/rules.md §15), shared by the server (which judges) and the mini-app
 * (which draws the calendar): UTC days, the streak ladder and the day's view of a player. Time is
 * always an argument; nothing here reads a clock.
 */
import { economy } from './economy.ts';
import type { DecimalString } from './money.ts';

export const dayMs = 86_400_000;

/** The UTC day of an epoch-ms instant, as a day number (days since 1970-01-01). */
export const utcDayOf = (ms: number): number => Math.floor(ms / dayMs);

/** The epoch ms at which a UTC day begins. */
export const dayStartMs = (day: number): number => day * dayMs;

/** A day number as YYYY-MM-DD (the wire's and the console's form). */
export const isoDay = (day: number): string => new Date(dayStartMs(day)).toISOString().slice(0, 10);

/** A YYYY-MM-DD calendar date as its day number, or null when it is not one. */
export const dayOfIso = (text: string): number | null => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(ms) && isoDay(utcDayOf(ms)) === text ? utcDayOf(ms) : null;
};

/** The calendar's length: its last step repeats for every day after it. */
export const streakLadderLength = economy.dailyStreakRewardsMoney.length;

/** The calendar step (1…10) of the n-th day in a row. */
export const streakStep = (daysInRow: number): number => Math.min(Math.max(1, daysInRow), streakLadderLength);

/** MONEY paid for the n-th day in a row. */
export const streakRewardMoney = (daysInRow: number): number => economy.dailyStreakRewardsMoney[streakStep(daysInRow) - 1]!;

/**
 * A player's day (docs/rules.md §15). It never names the day's combo or word: only the combo cards
 * this player has found today, and whether their word was right.
 */
export interface DailyStatus {
  /** The server's UTC day, YYYY-MM-DD. */
  day: string;
  /** Epoch ms when the next UTC day begins (a new reward, a new combo and word). */
  nextDayAt: number;
  streak: {
    /** Days in a row claimed, still alive today (0 after a missed day). */
    days: number;
    claimedToday: boolean;
    /** Today's step on the calendar, 1…10 (claimed or waiting). */
    step: number;
    /** MONEY for today's step. */
    reward: DecimalString;
  };
  combo: {
    /** The combo cards (boost keys) found today, in the order found: the player's filled slots. */
    found: number[];
    /** All three found: the reward is paid. */
    complete: boolean;
    reward: DecimalString;
  };
  cipher: {
    solved: boolean;
    /** Wrong guesses still allowed today. */
    guessesLeft: number;
    reward: DecimalString;
  };
  /** The bot may send reminders (the profile card's switch). */
  reminders: boolean;
}

/** A player's streak as stored: the day of the last claim (0 = never) and the days in a row then. */
export interface StreakRecord {
  readonly lastDay: number;
  readonly count: number;
}

/**
 * The days in a row a claim on `today` makes, or null when today is already claimed: the run goes
 * on from yesterday's claim, and starts again at 1 after a missed day (§15.1).
 */
export const streakAfterClaim = (s: StreakRecord, today: number): number | null => {
  if (s.lastDay >= today) return null;
  return s.lastDay === today - 1 ? s.count + 1 : 1;
};

/** The streak as the player sees it on `today`: the run still alive, and today's step. */
export const streakView = (s: StreakRecord, today: number): DailyStatus['streak'] => {
  const claimedToday = s.lastDay === today;
  const alive = claimedToday || s.lastDay === today - 1 ? s.count : 0;
  const todays = claimedToday ? s.count : alive + 1;
  return { days: alive, claimedToday, step: streakStep(todays), reward: String(streakRewardMoney(todays)) };
};

/** What the status row holds of a player's day (columns of migration 0950). */
export interface DailyRecord {
  readonly streak: StreakRecord;
  readonly comboDay: number;
  /** The combo cards found on comboDay, in the order found. */
  readonly comboFound: readonly number[];
  readonly cipherDay: number;
  readonly cipherSolved: boolean;
  readonly cipherMisses: number;
  readonly remindersOff: boolean;
}

/**
 * The daily part of the status at `nowMs`. It names only the combo cards the player has found:
 * the day's combo and word never leave the server before that (§15.2, §15.3).
 */
export const dailyStatusOf = (r: DailyRecord, nowMs: number): DailyStatus => {
  const today = utcDayOf(nowMs);
  const found = r.comboDay === today ? [...r.comboFound] : [];
  const cipherToday = r.cipherDay === today;
  return {
    day: isoDay(today),
    nextDayAt: dayStartMs(today + 1),
    streak: streakView(r.streak, today),
    combo: { found, complete: found.length >= economy.dailyComboCards, reward: String(economy.dailyComboRewardMoney) },
    cipher: {
      solved: cipherToday && r.cipherSolved,
      guessesLeft: Math.max(0, economy.dailyCipherGuessesPerDay - (cipherToday ? r.cipherMisses : 0)),
      reward: String(economy.dailyCipherRewardMoney),
    },
    reminders: !r.remindersOff,
  };
};
