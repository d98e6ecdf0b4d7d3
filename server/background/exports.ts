/** What the background feature offers the routes and the other features: they import it from here and nowhere else (docs/architecture.md, "Server layout"). */
export { createGameBot } from './game-bot.ts';
export { backgroundJobs, runJobsOnce } from './jobs.ts';
export type { JobSet, JobsResult } from './jobs.ts';
export { configSchema, loadConfig } from './settings.ts';
export type { Config } from './settings.ts';
