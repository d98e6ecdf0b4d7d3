/** What the console feature offers the other features: they import it from here and nowhere else (docs/architecture.md, "Server layout"). */
export { refreshConsoleAggregates } from './console-aggregates.ts';
export { auditAdminId, operatorKeyActor, recordAudit } from './audit.ts';
export type { Actor } from './audit.ts';
