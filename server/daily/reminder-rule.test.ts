import { describe, expect, it } from 'vitest';
import { dayStartMs, utcDayOf } from '../../engine/rules/daily.ts';
import { economy } from '../../engine/rules/economy.ts';
import { decideReminder, isAwakeHour, nextAwakeMs, type ReminderFacts } from './reminder-rule.ts';

const hour = 3_600_000;
const day = utcDayOf(Date.UTC(2026, 4, 10));
const at = (d: number, h: number, m = 0) => dayStartMs(d) + h * hour + m * 60_000;
/** Active 9:00–22:59 UTC, most in the evening. */
const evenings = Array.from({ length: 24 }, (_, h) => (h >= 9 && h <= 22 ? (h >= 18 ? 6 : 2) : 0));

const facts = (over: Partial<ReminderFacts> = {}): ReminderFacts => ({
  lastActiveMs: at(day, 10),
  energyFullAtMs: at(day, 10, 40),
  passiveCapAtMs: null,
  streakDay: 0,
  remindedDay: 0,
  remindedAtMs: 0,
  activeHours: evenings,
  ...over,
});

describe('quiet hours', () => {
  it('are the hours the player is not active around, from their own hours', () => {
    expect(isAwakeHour(evenings, 20)).toBe(true);
    expect(isAwakeHour(evenings, 9)).toBe(true);
    expect(isAwakeHour(evenings, 23)).toBe(true); // next to 22:00
    expect(isAwakeHour(evenings, 8)).toBe(false);
    expect(isAwakeHour(evenings, 3)).toBe(false);
    // One late night among many evenings stays quiet.
    const once = evenings.map((n, h) => (h === 3 ? 1 : n));
    expect(isAwakeHour(once, 3)).toBe(false);
    expect(isAwakeHour(Array(24).fill(0), 12)).toBe(false);
  });

  it('move a reminder due at night to the first awake hour', () => {
    expect(nextAwakeMs(evenings, at(day, 2, 30))).toBe(at(day, 9));
    expect(nextAwakeMs(evenings, at(day, 19, 5))).toBe(at(day, 19, 5));
    expect(nextAwakeMs(Array(24).fill(0), at(day, 19))).toBeNull();
  });
});

describe('decideReminder', () => {
  it('waits until the player has been away an hour, then says the energy is full', () => {
    expect(decideReminder(facts(), at(day, 10, 50))).toEqual({ nextAtMs: at(day, 11) });
    expect(decideReminder(facts(), at(day, 11))).toEqual({ send: 'energy' });
  });

  it('never reminds at night: a reminder due at 1:00 waits for the morning', () => {
    const f = facts({ lastActiveMs: at(day, 22, 30), energyFullAtMs: at(day, 23) });
    expect(decideReminder(f, at(day + 1, 1))).toEqual({ nextAtMs: at(day + 1, 9) });
    expect(decideReminder(f, at(day + 1, 9))).toEqual({ send: 'energy' });
  });

  it('sends at most one a day, and a lasting state once', () => {
    const f = facts({ passiveCapAtMs: at(day, 13), remindedDay: day, remindedAtMs: at(day, 11) });
    // The passive cap came after the energy reminder: tomorrow, in an awake hour.
    expect(decideReminder(f, at(day, 14))).toEqual({ nextAtMs: at(day + 1, 9) });
    expect(decideReminder(f, at(day + 1, 9))).toEqual({ send: 'passive' });
    // After that, nothing more is coming until the player comes back.
    expect(decideReminder({ ...f, remindedDay: day + 1, remindedAtMs: at(day + 1, 9) }, at(day + 3, 12))).toEqual({ nextAtMs: null });
  });

  it('warns of a streak about to be lost first, during the day after the claim, an hour before midnight at the latest', () => {
    const f = facts({ streakDay: day, passiveCapAtMs: at(day, 13), lastActiveMs: at(day, 10), energyFullAtMs: at(day, 10) });
    // The day of the claim: the energy first; the streak is not at risk yet.
    expect(decideReminder(f, at(day, 12))).toEqual({ send: 'energy' });
    const next = { ...f, remindedDay: day, remindedAtMs: at(day, 12) };
    // The next day at the first awake hour: the streak beats the passive income.
    expect(decideReminder(next, at(day + 1, 3))).toEqual({ nextAtMs: at(day + 1, 9) });
    expect(decideReminder(next, at(day + 1, 9))).toEqual({ send: 'streak' });
    // A player active only around 1:00 UTC, already past today: the next awake hour is after the streak is lost.
    const lateOwl = Array.from({ length: 24 }, (_, h) => (h === 1 ? 5 : 0));
    expect(decideReminder({ ...next, activeHours: lateOwl, passiveCapAtMs: null }, at(day + 1, 12))).toEqual({ nextAtMs: null });
    expect(economy.reminderStreakMarginMs).toBe(hour);
    // Once the streak is lost there is nothing to warn of.
    expect(decideReminder({ ...next, passiveCapAtMs: null }, at(day + 2, 12))).toEqual({ nextAtMs: null });
  });
});
