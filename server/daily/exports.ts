/** What the daily feature offers the routes and the other features: they import it from here and nowhere else (docs/architecture.md, "Server layout"). */
export { noteUpgrade } from './upgrade-hook.ts';
export { createPuzzleSource } from './puzzles.ts';
export type { PuzzleSource } from './puzzles.ts';
export { dailyPuzzlesJob, dailyRemindersJob } from './jobs.ts';
export { noteBotReachable } from './reminders.ts';
export { guessCipher } from './cipher.ts';
export { dailyMaxDaysListed, listDailyDays, setDailyPuzzle } from './console.ts';
export { createActivityNoter, setReminders } from './reminders.ts';
export { claimStreak } from './streak.ts';
export { dailySecretOf, dailySettings } from './settings.ts';
