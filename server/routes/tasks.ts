import type { FastifyPluginAsync } from 'fastify';
import type { RouteContext } from '../route-context.ts';

export const taskRoutes: FastifyPluginAsync<RouteContext> = async () => {};
