import type { FastifyPluginAsync } from 'fastify';
import type { RouteContext } from './route-context.ts';
import { adsRoutes } from './outside-ads.ts';
import { botRoutes } from './bot.ts';
import { jobRoutes } from './background.ts';
import { xRoutes } from './x-account.ts';

/**
 * The outside-services routes (docs/outside-services.md): ads and the Adsgram callback, X OAuth, broadcasts and the
 * bot webhook, the test cron. createApp registers this under apiPrefix with the RouteContext.
 */
export const outsideRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  await app.register(adsRoutes, ctx);
  await app.register(xRoutes, ctx);
  await app.register(botRoutes, ctx);
  await app.register(jobRoutes, ctx);
};
