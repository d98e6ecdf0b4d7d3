/** What the integrity feature offers the routes and the other features: they import it from here and nowhere else (docs/architecture.md, "Server layout"). */
export { excludedPlayerSql } from './review-sql.ts';
export { integrityRulesOf } from './rules.ts';
export type { IntegrityRules } from './rules.ts';
export { integritySignalsJob, integritySignalsJobName, refreshIntegrity } from './signals-job.ts';
export type { IntegrityRunResult } from './signals-job.ts';
export { DeviceSightings } from './devices.ts';
export { decideAppeal, decideReview, noteMaxLength } from './decisions.ts';
export { flagOfPlayer, flagsCursorKeyOf, flagsPageMax, listFlagRows, listFlags, openReviews } from './flags.ts';
export { integritySettings } from './settings.ts';
