import type { FastifyPluginAsync } from 'fastify';
import type { RouteContext } from '../route-context.ts';

export const gameRoutes: FastifyPluginAsync<RouteContext> = async () => {};
