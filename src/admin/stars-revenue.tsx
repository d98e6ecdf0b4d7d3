/**
 * Stars revenue a day by item (docs/shop.md "Records"): one line an item over the days asked for,
 * and the period's totals. The server keeps the sums as payments and refunds happen; the console
 * only draws them. The dashboard and the Shop page both show it.
 */
import { useMemo } from 'react';
import type { AdminShopRevenueDay } from '../../engine/wire/admin-types.ts';
import { DayChart, type Series } from './chart.tsx';
import { formatNumber } from './use-load.ts';

const colors = ['#c9a227', '#1565c0', '#2e7d32', '#6a1b9a', '#ef6c00', '#00838f', '#ad1457'];
const dayMs = 86_400_000;

/** The `days` UTC days ending on `today` (the server's), oldest first (YYYY-MM-DD): days nobody paid on are zeros, not gaps. */
const lastDays = (days: number, today: string): string[] =>
  Array.from({ length: days }, (_, i) => new Date(Date.parse(`${today}T00:00:00Z`) - (days - 1 - i) * dayMs).toISOString().slice(0, 10));

interface Totals {
  orders: number;
  stars: number;
  refunds: number;
  refundedStars: number;
}

export const StarsRevenue = ({ revenue, itemIds, days, today }: { revenue: AdminShopRevenueDay[]; itemIds: string[]; days: number; today: string }) => {
  const axis = useMemo(() => lastDays(days, today), [days, today]);
  const ids = useMemo(() => [...new Set([...itemIds, ...revenue.map((r) => r.itemId)])], [itemIds, revenue]);
  const series = useMemo<Series[]>(
    () =>
      ids.map((id, i) => {
        const byDay = new Map(revenue.filter((r) => r.itemId === id).map((r) => [r.day, r.stars - r.refundedStars]));
        return { label: id, values: axis.map((d) => byDay.get(d) ?? 0), color: colors[i % colors.length]! };
      }),
    [ids, revenue, axis],
  );
  const totals = useMemo(() => {
    const t = new Map<string, Totals>(ids.map((id) => [id, { orders: 0, stars: 0, refunds: 0, refundedStars: 0 }]));
    for (const r of revenue) {
      const x = t.get(r.itemId)!;
      x.orders += r.orders;
      x.stars += r.stars;
      x.refunds += r.refunds;
      x.refundedStars += r.refundedStars;
    }
    return t;
  }, [ids, revenue]);
  return (
    <section className="panel" data-testid="stars-revenue">
      <h2>Stars revenue a day, by item</h2>
      <p className="muted small">Stars paid less Stars refunded, by the UTC day of the payment; the last {formatNumber(days)} days.</p>
      <DayChart title="Net Stars a day" days={axis} series={series} />
      <div className="table-wrap">
        <table>
          <thead>
            <tr><th>Item</th><th className="num">Orders</th><th className="num">Stars</th><th className="num">Refunds</th><th className="num">Stars refunded</th><th className="num">Net Stars</th></tr>
          </thead>
          <tbody>
            {ids.map((id) => {
              const x = totals.get(id)!;
              return (
                <tr key={id}>
                  <td><code>{id}</code></td>
                  <td className="num">{formatNumber(x.orders)}</td>
                  <td className="num">{formatNumber(x.stars)}</td>
                  <td className="num">{formatNumber(x.refunds)}</td>
                  <td className="num">{formatNumber(x.refundedStars)}</td>
                  <td className="num"><strong>{formatNumber(x.stars - x.refundedStars)}</strong></td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
};
