/**
 * The console's Stars shop (docs/shop.md, docs/admin.md "Shop"): the catalog and its edits, Stars
 * revenue a day by item (the maintained aggregate, never a scan of the orders), the reconciliation's
 * flags, and refunds. Each action writes its own audit row. Registered inside the guarded console scope.
 */
import type { FastifyPluginAsync } from 'fastify';
import { actorOf } from '../console/exports.ts';
import { listItems, listOrders, reconciliationFlags, refundOrder, refundUnmatchedPayment, revenueByDay, unmatchedPayments, updateShopItem, type ItemEdit } from '../shop/exports.ts';
import type { AdminContext } from './admin-context.ts';
import { bigintCursor, int, obj, rowId, telegramUserId } from './validation.ts';

const titlesSchema = { type: 'object', maxProperties: 9, additionalProperties: { type: 'string', maxLength: 64 } } as const;

export const adminShopRoutes: FastifyPluginAsync<AdminContext> = async (app, ctx) => {

  app.get('/shop', { schema: { querystring: obj({ days: int(1, 90) }) } }, async (request) => {
    const days = (request.query as { days?: number }).days ?? 14;
    const now = ctx.clock.now();
    const [items, revenue, flags, unmatched] = await Promise.all([listItems(ctx.reads), revenueByDay(ctx.reads, now, days), reconciliationFlags(ctx.reads), unmatchedPayments(ctx.reads)]);
    return { today: new Date(now).toISOString().slice(0, 10), items, revenue, flags, unmatched };
  });

  // The orders with their states, newest first, 50 a page; one player's with `userId`.
  app.get('/shop/orders', { schema: { querystring: obj({ before: bigintCursor, userId: telegramUserId }) } }, async (request) => {
    const q = request.query as { before?: string; userId?: number };
    return listOrders(ctx.reads, { limit: 50, ...(q.before !== undefined ? { before: q.before } : {}), ...(q.userId !== undefined ? { userId: q.userId } : {}) });
  });

  app.post(
    '/shop/items/:id',
    {
      schema: {
        params: obj({ id: { type: 'string', pattern: '^[a-z0-9-]{1,32}$' } }, ['id']),
        body: obj({ priceStars: int(1, 10_000), amount: int(0, 1_000_000), dailyLimit: int(1, 100), enabled: { type: 'boolean' }, titles: titlesSchema }),
      },
    },
    async (request) => updateShopItem(ctx.db, actorOf(request), (request.params as { id: string }).id, request.body as ItemEdit, ctx.clock.now()),
  );

  // The order's id, and below the charge's: `:id` as every console route names its row.
  app.post('/shop/orders/:id/refund', { schema: { params: obj({ id: rowId }, ['id']) } }, async (request) =>
    refundOrder(ctx.db, ctx.config, actorOf(request), (request.params as { id: number }).id, ctx.clock.now()),
  );

  app.post('/shop/payments/:id/refund', { schema: { params: obj({ id: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' } }, ['id']) } }, async (request) =>
    refundUnmatchedPayment(ctx.db, ctx.config, actorOf(request), (request.params as { id: string }).id, ctx.clock.now()),
  );
};
