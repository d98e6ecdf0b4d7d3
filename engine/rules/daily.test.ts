import { describe, expect, it } from 'vitest';
import { dailyStatusOf, dayOfIso, dayStartMs, isoDay, streakAfterClaim, streakRewardMoney, streakView, utcDayOf, type DailyRecord } from './daily.ts';
import { economy } from './economy.ts';

const day = utcDayOf(Date.UTC(2026, 2, 10));

describe('UTC days', () => {
  it('begin at UTC midnight whatever the instant', () => {
    expect(utcDayOf(dayStartMs(day))).toBe(day);
    expect(utcDayOf(dayStartMs(day + 1) - 1)).toBe(day);
    expect(isoDay(day)).toBe('2026-03-10');
  });

  it('read a calendar date back, and nothing else', () => {
    expect(dayOfIso('2026-03-10')).toBe(day);
    for (const bad of ['2026-02-30', '2026-3-10', '10.03.2026', '', '2026-03-10T00:00'] as const) expect(dayOfIso(bad)).toBeNull();
  });
});

describe('streak', () => {
  it('rises for ten days, then pays the last step every day after', () => {
    const ladder = economy.dailyStreakRewardsMoney;
    expect(ladder).toHaveLength(10);
    expect(ladder.every((m, i) => i === 0 || m > ladder[i - 1]!)).toBe(true);
    expect([1, 2, 10, 11, 400].map(streakRewardMoney)).toEqual([ladder[0], ladder[1], ladder[9], ladder[9], ladder[9]]);
  });

  it('goes on from yesterday, starts again after a missed day, and refuses a second claim the same day', () => {
    expect(streakAfterClaim({ lastDay: day - 1, count: 4 }, day)).toBe(5);
    expect(streakAfterClaim({ lastDay: day - 2, count: 4 }, day)).toBe(1);
    expect(streakAfterClaim({ lastDay: 0, count: 0 }, day)).toBe(1);
    expect(streakAfterClaim({ lastDay: day, count: 4 }, day)).toBeNull();
    // A clock stepped back behind the last claim pays nothing.
    expect(streakAfterClaim({ lastDay: day + 1, count: 4 }, day)).toBeNull();
  });

  it('shows the run alive and today’s step, claimed or waiting', () => {
    expect(streakView({ lastDay: day, count: 3 }, day)).toEqual({ days: 3, claimedToday: true, step: 3, reward: String(streakRewardMoney(3)) });
    expect(streakView({ lastDay: day - 1, count: 3 }, day)).toEqual({ days: 3, claimedToday: false, step: 4, reward: String(streakRewardMoney(4)) });
    expect(streakView({ lastDay: day - 2, count: 9 }, day)).toEqual({ days: 0, claimedToday: false, step: 1, reward: String(streakRewardMoney(1)) });
  });
});

describe('the day in the status', () => {
  const record: DailyRecord = {
    streak: { lastDay: day - 1, count: 1 },
    comboDay: day,
    comboFound: [9],
    cipherDay: day - 1,
    cipherSolved: true,
    cipherMisses: 4,
    remindersOff: false,
  };

  it('shows only today’s finds and today’s cipher', () => {
    const s = dailyStatusOf(record, dayStartMs(day) + 5);
    expect(s.combo).toEqual({ found: [9], complete: false, reward: String(economy.dailyComboRewardMoney) });
    expect(s.cipher).toEqual({ solved: false, guessesLeft: economy.dailyCipherGuessesPerDay, reward: String(economy.dailyCipherRewardMoney) });
    expect(s.nextDayAt).toBe(dayStartMs(day + 1));
    const tomorrow = dailyStatusOf(record, dayStartMs(day + 1));
    expect(tomorrow.combo.found).toEqual([]);
    expect(tomorrow.day).toBe(isoDay(day + 1));
  });
});
