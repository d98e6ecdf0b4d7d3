/**
 * What the console's Shop page lists besides the catalog (docs/admin.md "Shop"): the orders with
 * their states, newest first and keyset-paged by id (one range of the primary key, or of
 * `shop_orders_user_idx` for one player), and the payments no order took, waiting for a refund
 * (a range of the partial index `star_payments_unmatched_idx`).
 */
import type { AdminShopOrder, AdminUnmatchedPayment, Page } from '../../engine/wire/admin-types.ts';
import type { Queryable } from '../core/db/db.ts';
import type { OrderRow } from './orders.ts';

const jsonOf = <T>(v: T | string | null): T | null => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

/** Orders newest first, `limit` a page, older than the cursor `before` (an order id), of one player or all. */
export const listOrders = async (q: Queryable, opts: { before?: string; userId?: number; limit: number }): Promise<Page<AdminShopOrder>> => {
  const r = await q.query<OrderRow>(
    `SELECT * FROM shop_orders WHERE ($1::bigint IS NULL OR id < $1) AND ($2::bigint IS NULL OR user_id = $2) ORDER BY id DESC LIMIT $3`,
    [opts.before ?? null, opts.userId ?? null, opts.limit + 1],
  );
  const rows = r.rows.slice(0, opts.limit);
  return {
    items: rows.map((o) => ({
      id: String(o.id),
      userId: String(o.user_id),
      itemId: o.item_id,
      priceStars: o.price_stars,
      state: o.state,
      createdAtMs: Number(o.created_at_ms),
      paidAtMs: o.paid_at_ms === null ? null : Number(o.paid_at_ms),
      refundedAtMs: o.refunded_at_ms === null ? null : Number(o.refunded_at_ms),
      chargeId: o.charge_id,
      notTakenBack: jsonOf(o.not_taken_back),
    })),
    next: r.rows.length > opts.limit ? String(rows[rows.length - 1]!.id) : null,
  };
};

/** Payments no order took and not yet refunded, oldest first: rare, and the index holds only them. */
export const unmatchedPayments = async (q: Queryable, limit = 100): Promise<AdminUnmatchedPayment[]> =>
  (
    await q.query<{ charge_id: string; user_id: number; stars: number; received_at_ms: number }>(
      'SELECT charge_id, user_id, stars, received_at_ms FROM star_payments WHERE NOT credited AND refunded_at_ms IS NULL ORDER BY received_at_ms LIMIT $1',
      [limit],
    )
  ).rows.map((p) => ({ chargeId: p.charge_id, userId: String(p.user_id), stars: Number(p.stars), receivedAtMs: Number(p.received_at_ms) }));
