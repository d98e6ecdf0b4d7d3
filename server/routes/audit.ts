/** The audit log in the console (docs/admin.md "Audit log"): every operator action's row, newest first, 50 a page. */
import type { AuditEntry, Page } from '../../engine/wire/admin-types.ts';
import { listAudit } from '../audit/exports.ts';
import { consoleScope } from './route-context.ts';
import { anyValue, consoleErrorResponses, keysetPageOf, objectOf } from './schemas.ts';
import { bigintCursor, obj } from './validation.ts';

const auditEntrySchema = objectOf<AuditEntry>()({ id: 'string', adminId: 'string', atMs: 'integer', action: 'string', target: 'string', before: anyValue, after: anyValue });

export const auditConsoleRoutes = consoleScope(async (app, ctx) => {
  app.get<{ Querystring: { before?: string; action?: string }; Reply: Page<AuditEntry> }>(
    '/audit',
    {
      schema: {
        querystring: obj({ before: bigintCursor, action: { type: 'string', maxLength: 64 } }),
        response: { 200: keysetPageOf(auditEntrySchema), ...consoleErrorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      return listAudit(ctx.reads, { limit: 50, ...(q.before !== undefined ? { before: q.before } : {}), ...(q.action ? { action: q.action } : {}) });
    },
  );
});
