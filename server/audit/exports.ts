/** What the audit room offers the routes and the features: they import it from here and nowhere else (docs/architecture.md, "Server layout"). */
export { auditAdminId, consoleActor, listAudit, operatorKeyActor, recordAudit } from './audit.ts';
export type { Actor, AuditRecord } from './audit.ts';
