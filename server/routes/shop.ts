import type { FastifyPluginAsync } from 'fastify';
import { orderStates, shopEffects, type ShopItemView, type ShopOrderState, type ShopOrderView, type ShopView } from '../../engine/rules/shop.ts';
import { playerOf } from '../players/exports.ts';
import { createOrder, orderOf, shopFor } from '../shop/exports.ts';
import { obj, rowId } from './validation.ts';
import type { RouteContext } from './route-context.ts';
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
 * successful_payment does (server/shop/orders.ts).
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
