/**
 * The daily loop's scheduled jobs (server/background/jobs.ts runs them once per period across
 * processes): today's and tomorrow's puzzles drawn where nobody set them, and the reminders.
 */
import { utcDayOf } from '../../engine/rules/daily.ts';
import type { Job } from '../core/jobs/job.ts';
import { fillPuzzle, type DailySecret } from './puzzles.ts';
import { runReminders, type ReminderJobOptions, type ReminderRunResult } from './reminders.ts';

/**
 * Once a UTC day: today's and tomorrow's combo and word, drawn from the secret where no operator set
 * them, so the console shows what players will get (the first player of a day would draw it too).
 */
export const dailyPuzzlesJob = (secret: DailySecret): Job<{ days: string[] }> => ({
  name: 'daily-puzzles',
  periodOf: (nowMs) => String(utcDayOf(nowMs)),
  checkEveryMs: 60_000,
  run: async ({ tx, nowMs }) => {
    const today = utcDayOf(nowMs);
    for (const day of [today, today + 1]) await fillPuzzle(tx, secret, day, nowMs);
    return { days: [String(today), String(today + 1)] };
  },
});

/** Every `everyMs`: the reminders whose moment has come, at most `batch` a run (docs/rules.md §15.4). */
export const dailyRemindersJob = (opts: ReminderJobOptions & { everyMs: number }): Job<ReminderRunResult> => ({
  name: 'daily-reminders',
  periodOf: (nowMs) => String(Math.floor(nowMs / opts.everyMs)),
  checkEveryMs: Math.max(1, Math.floor(opts.everyMs / 2)),
  run: ({ tx, nowMs }) => runReminders(tx, opts, nowMs),
});
