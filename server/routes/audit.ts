/** The audit log in the console (docs/admin.md "Audit log"): every operator action's row, newest first, 50 a page. */
import { listAudit } from '../audit/exports.ts';
import { consoleScope } from './route-context.ts';
import { bigintCursor, obj } from './validation.ts';

export const auditConsoleRoutes = consoleScope(async (app, ctx) => {
  app.get('/audit', { schema: { querystring: obj({ before: bigintCursor, action: { type: 'string', maxLength: 64 } }) } }, async (request) => {
    const q = request.query as { before?: string; action?: string };
    return listAudit(ctx.reads, { limit: 50, ...(q.before !== undefined ? { before: q.before } : {}), ...(q.action ? { action: q.action } : {}) });
  });
});
