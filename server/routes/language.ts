import type { FastifyPluginAsync } from 'fastify';
import type { LanguagePayload } from '../../engine/wire/api-types.ts';
import { isLocale, locales } from '../../engine/rules/i18n/locales.ts';
import { playerOf, setLanguage, statusOf } from '../players/exports.ts';
import { refuse } from '../core/errors.ts';
import { obj } from './validation.ts';
import type { RouteContext } from './route-context.ts';
import { errorResponses, playerRoute, userStatusSchema } from './schemas.ts';

const body = obj({ language: { type: ['string', 'null'], maxLength: 20, description: `One of ${locales.join(', ')}; null follows Telegram's language again` } }, ['language']);

/**
 * POST /language: the language chosen on the mini-app's profile card (docs/i18n.md), kept in
 * `users.language` (authentication rewrites `language_code` from Telegram on every session, so the
 * choice needs its own column). The status carries it back, and the mini-app starts in it.
 */
export const languageRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  app.post<{ Body: LanguagePayload }>(
    '/language',
    playerRoute(ctx)('user', "Remembers the player's language for the mini-app", { body, response: { 200: userStatusSchema, ...errorResponses } }),
    async (request) => {
      const { language } = request.body;
      if (language !== null && !isLocale(language)) throw refuse('languageNotOffered', { field: 'language', values: { locales: locales.join(', ') } });
      const row = await setLanguage(ctx.db, playerOf(request).id, language);
      if (row === null) throw refuse('userNotFound');
      return statusOf(row, ctx.clock.now());
    },
  );
};
