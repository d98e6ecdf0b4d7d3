/**
 * Stars revenue a day by item (docs/shop.md "Records"): kept in the transaction of each payment and
 * refund, in one of 16 rows of the day and item (user id mod 16) so buyers never queue on one row.
 * The console reads the sums of a few days; nothing scans the orders.
 */
import type { AdminShopRevenueDay } from '../../engine/wire/admin-types.ts';
import type { Queryable } from '../core/db/db.ts';

const shards = 16;

export const countRevenue = async (
  tx: Queryable,
  c: { day: number; itemId: string; userId: number; orders?: number; stars?: number; refunds?: number; refundedStars?: number },
): Promise<void> => {
  await tx.query(
    `INSERT INTO shop_revenue_days (day, item_id, shard, orders, stars, refunds, refunded_stars) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (day, item_id, shard) DO UPDATE SET orders = shop_revenue_days.orders + EXCLUDED.orders, stars = shop_revenue_days.stars + EXCLUDED.stars,
       refunds = shop_revenue_days.refunds + EXCLUDED.refunds, refunded_stars = shop_revenue_days.refunded_stars + EXCLUDED.refunded_stars`,
    [c.day, c.itemId, c.userId % shards, c.orders ?? 0, c.stars ?? 0, c.refunds ?? 0, c.refundedStars ?? 0],
  );
};

/** One day's revenue of one item. */
export type RevenueDay = AdminShopRevenueDay;

/** The last `days` UTC days up to `nowMs`, by day and item: at most days × items × 16 rows. */
export const revenueByDay = async (q: Queryable, nowMs: number, days: number): Promise<RevenueDay[]> => {
  const today = Math.floor(nowMs / 86_400_000);
  const r = await q.query<{ day: number; item_id: string; orders: string; stars: string; refunds: string; refunded_stars: string }>(
    `SELECT day, item_id, sum(orders)::text AS orders, sum(stars)::text AS stars, sum(refunds)::text AS refunds, sum(refunded_stars)::text AS refunded_stars
       FROM shop_revenue_days WHERE day > $1 AND day <= $2 GROUP BY day, item_id ORDER BY day DESC, item_id`,
    [today - days, today],
  );
  return r.rows.map((x) => ({
    day: new Date(Number(x.day) * 86_400_000).toISOString().slice(0, 10),
    itemId: x.item_id,
    orders: Number(x.orders),
    stars: Number(x.stars),
    refunds: Number(x.refunds),
    refundedStars: Number(x.refunded_stars),
  }));
};
