/**
 * The shop's orders (docs/shop.md "Orders"): made with their invoice link, approved at
 * pre-checkout, paid once by successful_payment. Credit happens only on successful_payment and
 * only once per telegram_payment_charge_id: `star_payments` is keyed by it, so the same payment
 * delivered twice, late, or to two processes at once inserts one row and credits one order.
 */
import { availableEnergy } from '../../engine/rules/energy.ts';
import { localeForLanguageCode, type Locale } from '../../engine/rules/i18n/locales.ts';
import { autoTapEarnings, extendTapBoost, refillEnergy, tapMultiplier, type OrderState, type ShopEffect, type ShopOrderState, type ShopOrderView } from '../../engine/rules/shop.ts';
import type { RefusalCode } from '../../engine/wire/refusals.ts';
import type { CoreConfig } from '../core/config/config.ts';
import type { Db, Queryable } from '../core/db/db.ts';
import { transaction } from '../core/db/transaction.ts';
import { refuse } from '../core/errors.ts';
import { catalogText } from '../core/catalog-text.ts';
import { appendLedger, creditDollars, loadUser } from '../players/exports.ts';
import { boughtToday, loadItem, playerLocale, titleIn, utcDay } from './catalog.ts';
import { createStarsInvoiceLink } from './stars-api.ts';
import { countRevenue } from './revenue.ts';

/** An order not paid within this is gone: pre-checkout refuses it (the player opens the shop again). */
export const orderLifetimeMs = 60 * 60_000;

/** The invoice payload of an order, and back. Telegram allows 1–128 bytes. */
export const payloadOf = (orderId: number): string => `order:${orderId}`;
export const orderIdOfPayload = (payload: string): number | null => {
  const m = /^order:(\d{1,18})$/.exec(payload);
  const id = m ? Number(m[1]) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
};

export interface OrderRow {
  id: number;
  user_id: number;
  item_id: string;
  effect: ShopEffect;
  amount: number;
  price_stars: number;
  state: OrderState;
  created_at_ms: number;
  paid_at_ms: number | null;
  charge_id: string | null;
  applied: Record<string, number> | null;
  refunded_at_ms: number | null;
  not_taken_back: Record<string, number | string> | null;
}

export const loadOrder = async (q: Queryable, id: number, lock = false): Promise<OrderRow | null> =>
  (await q.query<OrderRow>(`SELECT * FROM shop_orders WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id])).rows[0] ?? null;

/** The item's description for the invoice, in the player's language (the bot catalog). */
const descriptionOf = (effect: ShopEffect, amount: number, locale: Locale): string =>
  catalogText('bot', locale, `bot.shop.description.${effect}`, { hours: amount, taps: amount.toLocaleString('en-US') });

/** Why an item cannot be sold to the player now, or null. */
const saleRefusal = async (q: Queryable, item: { id: string; enabled: boolean; dailyLimit: number }, userId: number, nowMs: number): Promise<RefusalCode | null> => {
  if (!item.enabled) return 'shopItemOff';
  const bought = (await boughtToday(q, userId, nowMs, item.id)).get(item.id) ?? 0;
  return bought >= item.dailyLimit ? 'shopDailyLimit' : null;
};

/**
 * POST /shop/orders: the order (its own transaction), then its invoice link from Telegram, outside
 * any transaction. An order whose link Telegram did not make is never paid and simply expires.
 */
export const createOrder = async (
  db: Db,
  config: Pick<CoreConfig, 'BOT_TOKEN' | 'BOT_API_ROOT' | 'OUTSIDE_TIMEOUT_MS'>,
  userId: number,
  itemId: string,
  languageCode: string | null | undefined,
  nowMs: number,
): Promise<ShopOrderView> => {
  const { order, item } = await transaction(db, async (tx) => {
    const it = await loadItem(tx, itemId);
    if (it === null) throw refuse('shopItemNotFound', { field: 'itemId', values: { itemId } });
    const refusal = await saleRefusal(tx, it, userId, nowMs);
    if (refusal !== null) throw refuse(refusal, { field: 'itemId', values: { limit: it.dailyLimit } });
    const r = await tx.query<{ id: number }>(
      'INSERT INTO shop_orders (user_id, item_id, effect, amount, price_stars, created_at_ms) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
      [userId, it.id, it.effect, it.amount, it.priceStars, nowMs],
    );
    return { order: Number(r.rows[0]!.id), item: it };
  });
  const locale = await playerLocale(db, userId, languageCode);
  const link = await createStarsInvoiceLink(config, {
    title: titleIn(item, locale),
    description: descriptionOf(item.effect, item.amount, locale),
    payload: payloadOf(order),
    stars: item.priceStars,
  });
  return { orderId: String(order), state: 'created', itemId: item.id, price: item.priceStars, invoiceLink: link };
};

/** GET /shop/orders/:orderId: the player's own order and its state (the mini-app polls a pending one). */
export const orderOf = async (db: Db, userId: number, orderId: number): Promise<ShopOrderState> => {
  const o = await loadOrder(db, orderId);
  if (o === null || Number(o.user_id) !== userId) throw refuse('shopOrderNotFound', { field: 'orderId', values: { orderId } });
  return { orderId: String(o.id), state: o.state, itemId: o.item_id, price: o.price_stars };
};

/** A pre_checkout_query as the bot hands it over. */
export interface PreCheckout {
  userId: number;
  payload: string;
  currency: string;
  totalAmount: number;
}

/**
 * The bot's answer to pre_checkout_query: ok, or the refusal the player reads (their language is
 * the caller's business). Approves the order: its state says pre-checkout saw it. Nothing is credited.
 */
export const approveCheckout = (db: Db, q: PreCheckout, nowMs: number): Promise<{ ok: true } | { ok: false; code: RefusalCode; values?: Record<string, number> }> =>
  transaction(db, async (tx) => {
    const id = orderIdOfPayload(q.payload);
    const order = id === null ? null : await loadOrder(tx, id, true);
    if (order === null || Number(order.user_id) !== q.userId) return { ok: false, code: 'shopOrderGone' };
    if (order.state === 'paid' || order.state === 'refunded') return { ok: false, code: 'shopOrderPaid' };
    if (nowMs - Number(order.created_at_ms) > orderLifetimeMs || q.currency !== 'XTR' || q.totalAmount !== order.price_stars) return { ok: false, code: 'shopOrderGone' };
    const item = await loadItem(tx, order.item_id);
    if (item === null) return { ok: false, code: 'shopOrderGone' };
    const refusal = await saleRefusal(tx, item, q.userId, nowMs);
    if (refusal !== null) return { ok: false, code: refusal, values: { limit: item.dailyLimit } };
    await tx.query("UPDATE shop_orders SET state = 'approved', approved_at_ms = $2 WHERE id = $1 AND state IN ('created', 'approved')", [order.id, nowMs]);
    return { ok: true };
  });

/** A successful_payment as the bot hands it over. */
export interface SuccessfulPayment {
  userId: number;
  chargeId: string;
  payload: string;
  currency: string;
  totalAmount: number;
}

export type CreditOutcome =
  | { kind: 'credited'; orderId: number; title: string; locale: Locale }
  /** This charge id was credited (or recorded) before: nothing more happens. */
  | { kind: 'duplicate' }
  /** No order could take it (gone, or paid by another charge): recorded for a refund. */
  | { kind: 'unmatched' };

/** Applies an item's effect to the player's locked row; returns what it did (what a refund may take back). */
const applyEffect = async (tx: Queryable, order: OrderRow, nowMs: number): Promise<Record<string, number>> => {
  const row = await loadUser(tx, Number(order.user_id), true);
  const reference = `order:${order.id}`;
  if (order.effect === 'energyRefill') {
    const { energy, gained } = refillEnergy(availableEnergy(row.energy, row.energy_at_ms, nowMs, row.energy_level), row.energy_level);
    await tx.query('UPDATE users SET energy = $2, energy_at_ms = $3, bought_clicks = bought_clicks + $4 WHERE id = $1', [row.id, energy, nowMs, gained]);
    return { energyGained: gained };
  }
  if (order.effect === 'doubleTap') {
    const was = Number(row.tap_boost_until_ms ?? 0);
    const until = extendTapBoost(was, nowMs, order.amount);
    await tx.query('UPDATE users SET tap_boost_until_ms = $2 WHERE id = $1', [row.id, until]);
    return { boostFromMs: Math.max(was, nowMs), boostUntilMs: until };
  }
  const dollars = autoTapEarnings(order.amount, row.finger_level, tapMultiplier(Number(row.tap_boost_until_ms ?? 0), nowMs));
  await tx.query('UPDATE users SET total_click = total_click + $2, bought_clicks = bought_clicks + $2 WHERE id = $1', [row.id, order.amount]);
  await tx.query('INSERT INTO stats_deltas (clicks) VALUES ($1)', [order.amount]);
  await creditDollars(tx, { userId: row.id, amount: dollars, kind: 'shop', reference, nowMs });
  return { taps: order.amount, dollars };
};

/**
 * successful_payment: the one place an order is credited (docs/shop.md "Exactly once"). In one
 * transaction: the payment row (keyed by its charge id), the order paid, the effect, the ledger
 * rows (XTR for the payment, DOLLAR for dollars it gave), the day's revenue.
 */
export const creditPayment = (db: Db, p: SuccessfulPayment, nowMs: number): Promise<CreditOutcome> =>
  transaction(db, async (tx): Promise<CreditOutcome> => {
    const id = orderIdOfPayload(p.payload);
    const fresh = await tx.query(
      `INSERT INTO star_payments (charge_id, order_id, user_id, stars, payload, credited, received_at_ms)
       VALUES ($1, NULL, $2, $3, $4, false, $5) ON CONFLICT (charge_id) DO NOTHING`,
      [p.chargeId, p.userId, p.totalAmount, p.payload, nowMs],
    );
    if (fresh.rowCount !== 1) return { kind: 'duplicate' };
    const order = id === null ? null : await loadOrder(tx, id, true);
    const known = (await tx.query<{ language: string | null }>('SELECT language FROM users WHERE id = $1', [p.userId])).rows[0];
    if (order === null || Number(order.user_id) !== p.userId || order.state === 'paid' || order.state === 'refunded') {
      // Money Telegram took that no order can take: on the record, flagged for the console to refund.
      if (known !== undefined) await appendLedger(tx, [{ userId: p.userId, currency: 'XTR', amount: p.totalAmount, kind: 'stars-unmatched', reference: `charge:${p.chargeId}` }], nowMs);
      return { kind: 'unmatched' };
    }
    await tx.query(
      "UPDATE shop_orders SET state = 'paid', paid_at_ms = $2, paid_day = $3, charge_id = $4 WHERE id = $1",
      [order.id, nowMs, utcDay(nowMs), p.chargeId],
    );
    const applied = await applyEffect(tx, order, nowMs);
    await tx.query('UPDATE shop_orders SET applied = $2::jsonb WHERE id = $1', [order.id, JSON.stringify(applied)]);
    await tx.query('UPDATE star_payments SET order_id = $2, credited = true WHERE charge_id = $1', [p.chargeId, order.id]);
    await appendLedger(tx, [{ userId: p.userId, currency: 'XTR', amount: p.totalAmount, kind: 'stars-order', reference: `order:${order.id}` }], nowMs);
    await countRevenue(tx, { day: utcDay(nowMs), itemId: order.item_id, userId: p.userId, orders: 1, stars: p.totalAmount });
    const item = await loadItem(tx, order.item_id);
    const locale = localeForLanguageCode(known?.language ?? null);
    return { kind: 'credited', orderId: Number(order.id), title: item ? titleIn(item, locale) : order.item_id, locale };
  });
