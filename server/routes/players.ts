import type { FastifyPluginAsync } from 'fastify';
import type { LanguagePayload } from '../../engine/wire/api-types.ts';
import { isLocale, locales } from '../../engine/rules/i18n/locales.ts';
import { loadUser, playerOf, setLanguage, statusOf } from '../players/exports.ts';
import { refuse } from '../core/errors.ts';
import { createActivityNoter } from '../daily/exports.ts';
import type { RouteContext } from './route-context.ts';
import { errorResponses, playerRoute, playerSecurity, userStatusSchema } from './schemas.ts';
import { obj } from './validation.ts';

const languageBody = obj({ language: { type: ['string', 'null'], maxLength: 20, description: `One of ${locales.join(', ')}; null follows Telegram's language again` } }, ['language']);

/**
 * GET (root): the player's status (spec §3), computed at the server's time. POST /language: the
 * language chosen on the mini-app's profile card (docs/i18n.md), kept in `users.language`
 * (authentication rewrites `language_code` from Telegram on every session, so the choice needs its
 * own column). The status carries it back, and the mini-app starts in it.
 */
export const playerRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
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

  app.post<{ Body: LanguagePayload }>(
    '/language',
    playerRoute(ctx)('user', "Remembers the player's language for the mini-app", { body: languageBody, response: { 200: userStatusSchema, ...errorResponses } }),
    async (request) => {
      const { language } = request.body;
      if (language !== null && !isLocale(language)) throw refuse('languageNotOffered', { field: 'language', values: { locales: locales.join(', ') } });
      const row = await setLanguage(ctx.db, playerOf(request).id, language);
      if (row === null) throw refuse('userNotFound');
      return statusOf(row, ctx.clock.now());
    },
  );
};
