/**
 * Refunds (docs/shop.md "Refunds"): the console refunds a paid order with refundStarPayment, then,
 * in one transaction with its audit row, the order's effect is taken back where it can be and the
 * order records what could not be. Telegram is asked first and outside any transaction; a refund
 * it already made ("CHARGE_ALREADY_REFUNDED") is finished here, so a retried refund completes once.
 */
import { availableEnergy } from '../../engine/rules/energy.ts';
import type { AdminRefundResult } from '../../engine/wire/admin-types.ts';
import type { CoreConfig } from '../core/config/config.ts';
import type { Db, Queryable } from '../core/db/db.ts';
import { transaction } from '../core/db/transaction.ts';
import { refuse } from '../core/errors.ts';
import { recordAudit, type Actor } from '../audit/exports.ts';
import { appendLedger, changeBalance, loadUser } from '../players/exports.ts';
import { money, toWire } from '../../engine/rules/money.ts';
import { loadOrder, type OrderRow } from './orders.ts';
import { countRevenue } from './revenue.ts';
import { refundStars } from './stars-api.ts';
import { utcDay } from './catalog.ts';

/** Takes back what the order gave, as far as the player's state allows; returns what it took and what it could not. */
const takeBack = async (tx: Queryable, order: OrderRow, nowMs: number): Promise<{ taken: Record<string, number | string>; notTaken: Record<string, number | string> }> => {
  const row = await loadUser(tx, Number(order.user_id), true);
  const applied = order.applied ?? {};
  if (order.effect === 'energyRefill') {
    const available = availableEnergy(row.energy, row.energy_at_ms, nowMs, row.energy_level);
    const take = Math.min(available, applied.energyGained ?? 0);
    // Keep the regen phase: energy_at_ms stays unless the energy was full (then regen starts now).
    await tx.query('UPDATE users SET energy = $2, energy_at_ms = $3 WHERE id = $1', [row.id, available - take, nowMs]);
    return { taken: { energy: take }, notTaken: { energy: (applied.energyGained ?? 0) - take } };
  }
  if (order.effect === 'doubleTap') {
    const from = applied.boostFromMs ?? nowMs;
    const until = applied.boostUntilMs ?? nowMs;
    const length = until - from;
    const current = Number(row.tap_boost_until_ms ?? 0);
    // The stretch this order added ends; the part already played (doubled taps banked) stays.
    const next = Math.max(nowMs, current - length);
    const used = Math.max(0, Math.min(nowMs, until) - from);
    await tx.query('UPDATE users SET tap_boost_until_ms = $2 WHERE id = $1', [row.id, current > nowMs ? next : current]);
    return { taken: { boostMs: Math.max(0, length - used) }, notTaken: { boostMsPlayed: used } };
  }
  const dollars = money(applied.dollars ?? 0);
  const take = money(row.total_earn).lt(dollars) ? money(row.total_earn) : dollars;
  if (take.gt(0)) await changeBalance(tx, 'DOLLAR', { userId: row.id, amount: take.neg(), kind: 'shop-refund', reference: `order:${order.id}`, nowMs });
  return { taken: { dollars: toWire(take) }, notTaken: { dollars: toWire(dollars.minus(take)) } };
};

export type RefundResult = AdminRefundResult;

/** The console's refund of a paid order (also its operator-API door): Telegram, then the order, the effect, the ledger, revenue and audit. */
export const refundOrder = async (db: Db, config: Pick<CoreConfig, 'BOT_TOKEN' | 'BOT_API_ROOT' | 'OUTSIDE_TIMEOUT_MS'>, actor: Actor, orderId: number, nowMs: number): Promise<RefundResult> => {
  const order = await loadOrder(db, orderId);
  if (order === null) throw refuse('shopOrderNotFound', { field: 'orderId', values: { orderId } });
  if (order.state !== 'paid' || order.charge_id === null) throw refuse('shopRefundNotPaid', { field: 'orderId', values: { orderId, state: order.state } });
  await refundStars(config, Number(order.user_id), order.charge_id);
  return transaction(db, async (tx) => {
    const o = (await loadOrder(tx, orderId, true))!;
    // Another refund of it finished meanwhile: what it recorded is the answer.
    if (o.state !== 'paid') return { orderId: String(o.id), state: o.state, taken: {}, notTaken: o.not_taken_back ?? {} };
    const { taken, notTaken } = await takeBack(tx, o, nowMs);
    await tx.query("UPDATE shop_orders SET state = 'refunded', refunded_at_ms = $2, not_taken_back = $3::jsonb WHERE id = $1", [o.id, nowMs, JSON.stringify(notTaken)]);
    await tx.query('UPDATE star_payments SET refunded_at_ms = $2 WHERE charge_id = $1', [o.charge_id, nowMs]);
    await appendLedger(tx, [{ userId: Number(o.user_id), currency: 'XTR', amount: -o.price_stars, kind: 'stars-refund', reference: `order:${o.id}` }], nowMs);
    await countRevenue(tx, { day: utcDay(Number(o.paid_at_ms ?? nowMs)), itemId: o.item_id, userId: Number(o.user_id), refunds: 1, refundedStars: o.price_stars });
    await recordAudit(tx, { actor, action: 'shop.refund', target: `order:${o.id}`, before: { state: 'paid', applied: o.applied }, after: { state: 'refunded', taken, notTaken }, nowMs });
    return { orderId: String(o.id), state: 'refunded' as const, taken, notTaken };
  });
};

/** A payment no order took (star_payments.credited false): refunded whole, with its audit row. */
export const refundUnmatchedPayment = async (db: Db, config: Pick<CoreConfig, 'BOT_TOKEN' | 'BOT_API_ROOT' | 'OUTSIDE_TIMEOUT_MS'>, actor: Actor, chargeId: string, nowMs: number): Promise<{ chargeId: string; refunded: boolean }> => {
  const r = await db.query<{ user_id: number; stars: number; credited: boolean; refunded_at_ms: number | null }>('SELECT user_id, stars, credited, refunded_at_ms FROM star_payments WHERE charge_id = $1', [chargeId]);
  const p = r.rows[0];
  if (p === undefined || p.credited) throw refuse('starPaymentNotFound', { field: 'chargeId', values: { chargeId } });
  if (p.refunded_at_ms !== null) return { chargeId, refunded: true };
  await refundStars(config, Number(p.user_id), chargeId);
  return transaction(db, async (tx) => {
    const done = await tx.query('UPDATE star_payments SET refunded_at_ms = $2 WHERE charge_id = $1 AND refunded_at_ms IS NULL', [chargeId, nowMs]);
    if (done.rowCount === 1) {
      const known = (await tx.query('SELECT 1 FROM users WHERE id = $1', [p.user_id])).rows.length > 0;
      if (known) await appendLedger(tx, [{ userId: Number(p.user_id), currency: 'XTR', amount: -p.stars, kind: 'stars-refund', reference: `charge:${chargeId}` }], nowMs);
      await recordAudit(tx, { actor, action: 'shop.refund', target: `charge:${chargeId}`, after: { stars: p.stars }, nowMs });
    }
    return { chargeId, refunded: true };
  });
};
