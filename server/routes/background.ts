/**
 * GET /public/test-cron (§7, no auth): runs the scheduled jobs once, now. It exists only when
 * ENABLE_TEST_CRON is on; otherwise it is a 404 like any unknown path.
 */
import type { FastifyPluginAsync } from 'fastify';
import { backgroundJobs, runJobsOnce, type JobsResult } from '../background/exports.ts';
import type { RouteContext } from './route-context.ts';
import { wholeObject } from './schemas.ts';

export const backgroundRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  if (!ctx.config.ENABLE_TEST_CRON) return;
  // The scheduler's own list (server/background/jobs.ts), so the test cron runs what production runs.
  const jobs = backgroundJobs(ctx.config, { db: ctx.db, realBot: ctx.realBot, redis: ctx.redis });
  app.get<{ Reply: JobsResult }>(
    '/public/test-cron',
    {
      schema: {
        summary: 'Runs the daily reset, the stats refresh and the channel membership checks once (test only)',
        tags: ['public'],
        // Every job of the set by name, with its outcome (server/background/jobs.ts JobsResult).
        response: { 200: wholeObject<JobsResult>() },
      },
    },
    async () => runJobsOnce(ctx.db, ctx.clock.now(), jobs, { force: true }),
  );
};
