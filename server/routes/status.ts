import type { FastifyPluginAsync } from 'fastify';
import { playerOf } from '../players/authenticate.ts';
import { loadUser, statusOf } from '../players/users.ts';
import type { RouteContext } from './route-context.ts';
import { playerSecurity, userStatusSchema } from './schemas.ts';

/** GET (root): the player's status (spec §3), computed at the server's time. */
export const statusRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  app.get(
    '/',
    {
      onRequest: ctx.authenticate,
      schema: { summary: 'My user airdrop status', tags: ['user'], security: playerSecurity, response: { 200: userStatusSchema } },
    },
    async (request) => statusOf(await loadUser(ctx.db, playerOf(request).id), ctx.clock.now()),
  );
};
