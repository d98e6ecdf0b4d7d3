import type { FastifyPluginAsync } from 'fastify';
import { orderStates, shopEffects, type ShopItemView, type ShopOrderState, type ShopOrderView, type ShopView } from '../../engine/shop.ts';
import { playerOf } from '../players/exports.ts';
import { actorOf } from '../console/exports.ts';
import { createOrder, listItems, listOrders, orderOf, reconciliationFlags, refundOrder, refundUnmatchedPayment, revenueByDay, shopFor, unmatchedPayments, updateShopItem, type ItemEdit } from '../shop/exports.ts';
import { bigintCursor, int, obj, rowId, telegramUserId } from './validation.ts';
import { consoleScope, type RouteContext } from './route-context.ts';
import { arrayOf, enumOf, errorResponses, objectOf, playerRoute } from './schemas.ts';

const itemSchema = objectOf<ShopItemView>()({
  id: 'string',
  effect: enumOf(shopEffects),
  title: 'string',
  price: 'integer',
  amount: 'integer',
  dailyLimit: 'integer',
  boughtToday: 'integer',
});
const orderStateSchema = objectOf<ShopOrderState>()({ orderId: 'string', state: enumOf(orderStates), itemId: 'string', price: 'integer' });

/**
 * The Stars shop (docs/shop.md): the items on sale, a new order with its invoice link (the mini-app
 * opens it with WebApp.openInvoice), and an order's state. Nothing here credits: only the bot's
 * successful_payment does (server/shop/orders.ts). The console's page is `shopConsoleRoutes` below.
 */
export const shopRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  const route = playerRoute(ctx);

  app.get(
    '/shop',
    route('shop', 'The Stars shop: items on sale in the player’s language, with what is left of today’s limit', {
      response: { 200: objectOf<ShopView>()({ items: arrayOf(itemSchema, 'items on sale') }), ...errorResponses },
    }),
    async (request): Promise<ShopView> => {
      const player = playerOf(request);
      return { items: await shopFor(ctx.db, player.id, player.initData.user.language_code, ctx.clock.now()) };
    },
  );

  app.post<{ Body: { itemId: string } }>(
    '/shop/orders',
    route('shop', 'A new order and its Telegram Stars invoice link (createInvoiceLink, XTR); refused when the item is off or over today’s limit', {
      body: obj({ itemId: { type: 'string', pattern: '^[a-z0-9-]{1,32}$', description: 'a shop item id from GET /shop' } }, ['itemId']),
      response: {
        200: objectOf<ShopOrderView>()({ orderId: 'string', state: enumOf(orderStates), itemId: 'string', price: 'integer', invoiceLink: 'string' }),
        ...errorResponses,
      },
    }),
    async (request): Promise<ShopOrderView> => {
      const player = playerOf(request);
      return createOrder(ctx.db, ctx.config, player.id, request.body.itemId, player.initData.user.language_code, ctx.clock.now());
    },
  );

  app.get<{ Params: { orderId: number } }>(
    '/shop/orders/:orderId',
    route('shop', 'Where one of the player’s orders stands: created, approved, paid or refunded', {
      params: obj({ orderId: rowId }, ['orderId']),
      response: { 200: orderStateSchema, ...errorResponses },
    }),
    async (request): Promise<ShopOrderState> => orderOf(ctx.db, playerOf(request).id, request.params.orderId),
  );
};

const titlesSchema = { type: 'object', maxProperties: 9, additionalProperties: { type: 'string', maxLength: 64 } } as const;

/**
 * The console's Stars shop (docs/admin.md "Shop"): the catalog and its edits, Stars revenue a day by
 * item (the maintained aggregate, never a scan of the orders), the reconciliation's flags, and
 * refunds. Each action writes its own audit row.
 */
export const shopConsoleRoutes = consoleScope(async (app, ctx) => {
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
});
