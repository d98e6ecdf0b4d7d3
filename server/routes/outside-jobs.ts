/**
 * GET /public/test-cron (§7, no auth): runs the scheduled jobs once, now. It exists only when
 * ENABLE_TEST_CRON is on; otherwise it is a 404 like any unknown path.
 */
import type { FastifyPluginAsync } from 'fastify';
import { channelJob, runJobsOnce } from '../background/exports.ts';
import { integrityRulesOf } from '../integrity/exports.ts';
import type { RouteContext } from './route-context.ts';

export const jobRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  if (!ctx.config.ENABLE_TEST_CRON) return;
  app.get('/public/test-cron', { schema: { summary: 'Runs the daily reset, the stats refresh and the channel membership checks once (test only)', tags: ['public'] } }, async () =>
    runJobsOnce(ctx.db, ctx.clock.now(), { force: true, channel: channelJob(ctx.config), integrity: integrityRulesOf(ctx.config) }),
  );
};
