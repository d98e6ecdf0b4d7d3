import type { FastifyPluginAsync } from 'fastify';
import type { RouteContext } from '../route-context.ts';

/**
 * Placeholder for the outside-services routes (issue 5: ads, X OAuth, broadcast, Adsgram callback,
 * test cron). createApp registers it under apiPrefix with the RouteContext as options.
 */
export const outsideRoutes: FastifyPluginAsync<RouteContext> = async () => {};
