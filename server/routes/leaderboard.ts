import type { FastifyPluginAsync } from 'fastify';
import type { PublicStats } from '../../engine/wire/api-types.ts';
import type { Db } from '../core/db/db.ts';
import { playerOf } from '../players/exports.ts';
import { leaderboardFromRedis, leaderboardFromView, readStatsCache, refreshStatsCache } from '../leaderboard/exports.ts';
import type { RouteContext } from './route-context.ts';
import { paging } from './referrals.ts';
import { errorResponses, leaderboardEntrySchema, objectOf, pageOf, playerRoute } from './schemas.ts';
import { obj } from './validation.ts';

/**
 * The stats as counters (one row plus the changes the stats job has not folded in yet; docs/scaling.md):
 * a request never scans users. Only if the row is missing (migration 0980 writes it) does one request
 * fold the changes into it, shared by every request arriving meanwhile. The answer is kept in memory
 * for a few seconds, so anonymous visitors cannot keep the database busy at all.
 */
const keepInMemoryMs = 5_000;

/** `reads` serves the cached row (the replica while fresh); a fresh install's first computation writes through `db`. */
const cachedStats = (reads: Db, db: Db, now: () => number) => {
  let first: Promise<PublicStats> | null = null;
  let kept: { stats: PublicStats; atMs: number } | null = null;
  return async (): Promise<PublicStats> => {
    if (kept !== null && now() - kept.atMs < keepInMemoryMs && now() >= kept.atMs) return kept.stats;
    const cached = await readStatsCache(reads);
    if (cached !== null) {
      kept = { stats: { totalClick: cached.totalClick, totalPaticipant: cached.totalPaticipant, totalEarn: cached.totalEarn }, atMs: now() };
      return kept.stats;
    }
    first ??= refreshStatsCache(db, now()).finally(() => {
      first = null;
    });
    return first;
  };
};

/** The leaderboard (the player's), and the landing page's public stats (no auth). */
export const leaderboardRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  const route = playerRoute(ctx);
  app.get<{ Querystring: { page: number; pageSize: number } }>(
    '/leaderboard',
    route('leaderboard', 'Players by totalMoney, 10 a page; the player’s own entry comes first with their rank (ranks about a second old, at most 60 s, docs/scaling.md)', {
      querystring: obj(paging),
      response: { 200: pageOf(leaderboardEntrySchema), ...errorResponses },
    }),
    async (request) => {
      const { page, pageSize } = request.query;
      const id = playerOf(request).id;
      // Redis when it is configured and answering; the PostgreSQL ranked view otherwise (docs/scaling.md).
      const live = ctx.redis === undefined ? null : await leaderboardFromRedis(ctx.reads, ctx.redis, id, page, pageSize);
      return live ?? leaderboardFromView(ctx.reads, id, page, pageSize);
    },
  );

  const stats = cachedStats(ctx.reads, ctx.db, () => ctx.clock.now());
  app.get(
    '/public/stats',
    {
      schema: {
        summary: 'Landing-page statistics: total clicks, players and dollars earned (refreshed by a job every STATS_REFRESH_MS)',
        tags: ['public'],
        response: {
          200: objectOf<PublicStats>()({ totalClick: 'integer', totalPaticipant: 'integer', totalEarn: 'decimal' }),
        },
      },
    },
    stats,
  );
};
