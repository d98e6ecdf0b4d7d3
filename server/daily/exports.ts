/** What the daily feature offers the other features: they import it from here and nowhere else (docs/architecture.md, "Server layout"). */
export { noteComboUpgrade } from './combo.ts';
export { createPuzzleSource } from './puzzles.ts';
export type { PuzzleSource } from './puzzles.ts';
export { dailyPuzzlesJob, dailyRemindersJob } from './jobs.ts';
