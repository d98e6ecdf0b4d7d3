import type { FastifyPluginAsync } from 'fastify';
import type {
  AdminRefundResult,
  AdminShop,
  AdminShopItem,
  AdminShopItemEdit,
  AdminShopOrder,
  AdminShopRevenueDay,
  AdminStarsFlag,
  AdminUnmatchedPayment,
  Page,
} from '../../engine/wire/admin-types.ts';
import type { Locale } from '../../engine/rules/i18n/locales.ts';
import { orderStates, shopEffects, type ShopItemView, type ShopOrderState, type ShopOrderView, type ShopView } from '../../engine/rules/shop.ts';
import { playerOf } from '../players/exports.ts';
import { actorOf } from '../console/exports.ts';
import { createOrder, listItems, listOrders, orderOf, reconciliationFlags, refundOrder, refundUnmatchedPayment, revenueByDay, shopFor, unmatchedPayments, updateShopItem } from '../shop/exports.ts';
import { bigintCursor, int, obj, rowId, telegramUserId } from './validation.ts';
import { consoleScope, type RouteContext } from './route-context.ts';
import { arrayOf, consoleErrorResponses, enumOf, errorResponses, keysetPageOf, mixedRecord, nullable, objectOf, playerRoute, recordOf } from './schemas.ts';

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

const adminItemSchema = objectOf<AdminShopItem>()({
  id: 'string',
  effect: enumOf(shopEffects),
  priceStars: 'integer',
  amount: 'integer',
  dailyLimit: 'integer',
  enabled: 'boolean',
  titles: recordOf<'string', Locale>('string', 'the title in every language'),
  position: 'integer',
});
const adminShopSchema = objectOf<AdminShop>()({
  today: 'string',
  items: arrayOf(adminItemSchema),
  revenue: arrayOf(
    objectOf<AdminShopRevenueDay>()({ day: 'string', itemId: 'string', orders: 'integer', stars: 'integer', refunds: 'integer', refundedStars: 'integer' }),
  ),
  flags: arrayOf(
    objectOf<AdminStarsFlag>()({ chargeId: 'string', problem: enumOf(['unknownHere', 'missingAtTelegram', 'starsDiffer', 'refundDiffers']), detail: 'string', foundAtMs: 'integer' }),
  ),
  unmatched: arrayOf(objectOf<AdminUnmatchedPayment>()({ chargeId: 'string', userId: 'string', stars: 'integer', receivedAtMs: 'integer' })),
});
const adminOrderSchema = objectOf<AdminShopOrder>()({
  id: 'string',
  userId: 'string',
  itemId: 'string',
  priceStars: 'integer',
  state: enumOf(orderStates),
  createdAtMs: 'integer',
  paidAtMs: 'integer?',
  refundedAtMs: 'integer?',
  chargeId: 'string?',
  notTakenBack: nullable(mixedRecord('what a refund could not take back')),
});
const refundSchema = objectOf<AdminRefundResult>()({
  orderId: 'string',
  state: enumOf(orderStates),
  taken: mixedRecord('what the refund took back'),
  notTaken: mixedRecord('what it could not take back (energy spent, doubled time played, dollars spent)'),
});
/** POST /shop/payments/:id/refund: the unmatched charge, and whether Telegram refunded it now. */
interface PaymentRefund {
  chargeId: string;
  refunded: boolean;
}

/**
 * The console's Stars shop (docs/admin.md "Shop"): the catalog and its edits, Stars revenue a day by
 * item (the maintained aggregate, never a scan of the orders), the reconciliation's flags, and
 * refunds. Each action writes its own audit row.
 */
export const shopConsoleRoutes = consoleScope(async (app, ctx) => {
  app.get<{ Querystring: { days?: number }; Reply: AdminShop }>(
    '/shop',
    { schema: { querystring: obj({ days: int(1, 90) }), response: { 200: adminShopSchema, ...consoleErrorResponses } } },
    async (request) => {
      const days = request.query.days ?? 14;
      const now = ctx.clock.now();
      const [items, revenue, flags, unmatched] = await Promise.all([listItems(ctx.reads), revenueByDay(ctx.reads, now, days), reconciliationFlags(ctx.reads), unmatchedPayments(ctx.reads)]);
      return { today: new Date(now).toISOString().slice(0, 10), items, revenue, flags, unmatched };
    },
  );

  // The orders with their states, newest first, 50 a page; one player's with `userId`.
  app.get<{ Querystring: { before?: string; userId?: number }; Reply: Page<AdminShopOrder> }>(
    '/shop/orders',
    { schema: { querystring: obj({ before: bigintCursor, userId: telegramUserId }), response: { 200: keysetPageOf(adminOrderSchema), ...consoleErrorResponses } } },
    async (request) => {
      const q = request.query;
      return listOrders(ctx.reads, { limit: 50, ...(q.before !== undefined ? { before: q.before } : {}), ...(q.userId !== undefined ? { userId: q.userId } : {}) });
    },
  );

  app.post<{ Params: { id: string }; Body: AdminShopItemEdit; Reply: AdminShopItem }>(
    '/shop/items/:id',
    {
      schema: {
        params: obj({ id: { type: 'string', pattern: '^[a-z0-9-]{1,32}$' } }, ['id']),
        body: obj({ priceStars: int(1, 10_000), amount: int(0, 1_000_000), dailyLimit: int(1, 100), enabled: { type: 'boolean' }, titles: titlesSchema }),
        response: { 200: adminItemSchema, ...consoleErrorResponses },
      },
    },
    async (request) => updateShopItem(ctx.db, actorOf(request), request.params.id, request.body, ctx.clock.now()),
  );

  // The order's id, and below the charge's: `:id` as every console route names its row.
  app.post<{ Params: { id: number }; Reply: AdminRefundResult }>(
    '/shop/orders/:id/refund',
    { schema: { params: obj({ id: rowId }, ['id']), response: { 200: refundSchema, ...consoleErrorResponses } } },
    async (request) => refundOrder(ctx.db, ctx.config, actorOf(request), request.params.id, ctx.clock.now()),
  );

  app.post<{ Params: { id: string }; Reply: PaymentRefund }>(
    '/shop/payments/:id/refund',
    {
      schema: {
        params: obj({ id: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' } }, ['id']),
        response: { 200: objectOf<PaymentRefund>()({ chargeId: 'string', refunded: 'boolean' }), ...consoleErrorResponses },
      },
    },
    async (request) => refundUnmatchedPayment(ctx.db, ctx.config, actorOf(request), request.params.id, ctx.clock.now()),
  );
});
