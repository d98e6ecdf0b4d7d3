import type { FastifyPluginAsync } from 'fastify';
import type { RouteContext } from '../route-context.ts';

export const publicRoutes: FastifyPluginAsync<RouteContext> = async () => {};
