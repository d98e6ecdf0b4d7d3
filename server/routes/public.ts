import type { FastifyPluginAsync } from 'fastify';
import type { PublicStats } from '../../engine/api-types.ts';
import { toWire } from '../../engine/money.ts';
import type { RouteContext } from '../route-context.ts';
import { decimalSchema } from './schemas.ts';

/** Public calls (no auth). */
export const publicRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  app.get(
    '/public/stats',
    {
      schema: {
        summary: 'Landing-page statistics: total clicks, players and dollars earned',
        tags: ['public'],
        response: {
          200: { type: 'object', properties: { totalClick: { type: 'integer' }, totalPaticipant: { type: 'integer' }, totalEarn: decimalSchema } },
        },
      },
    },
    async (): Promise<PublicStats> => {
      const r = await ctx.db.query<{ clicks: string | number; players: number; earn: string }>(
        'SELECT COALESCE(sum(total_click), 0) AS clicks, count(*)::int AS players, COALESCE(sum(total_earn), 0) AS earn FROM users',
      );
      const row = r.rows[0]!;
      return { totalClick: Number(row.clicks), totalPaticipant: row.players, totalEarn: toWire(row.earn) };
    },
  );
};
