import type { FastifyPluginAsync } from 'fastify';
import { loadUser, playerOf, statusOf } from '../players/exports.ts';
import { createActivityNoter } from '../daily/exports.ts';
import type { RouteContext } from './route-context.ts';
import { playerSecurity, userStatusSchema } from './schemas.ts';

/** GET (root): the player's status (spec §3), computed at the server's time. */
export const statusRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  // Opening the app counts in the player's active hours and keeps their reminder's moment (docs/rules.md
  // §15.4): at most one write per player and hour; a failure there never fails the status.
  const noteActivity = createActivityNoter(ctx.db, ctx.config.REMINDERS_AWAY_MS);
  app.get(
    '/',
    {
      onRequest: ctx.authenticate,
      schema: { summary: 'My user airdrop status', tags: ['user'], security: playerSecurity, response: { 200: userStatusSchema } },
    },
    async (request) => {
      const id = playerOf(request).id;
      const now = ctx.clock.now();
      await noteActivity(id, now).catch((err: unknown) => request.log.warn({ err }, 'activity not noted'));
      return statusOf(await loadUser(ctx.db, id), now);
    },
  );
};
