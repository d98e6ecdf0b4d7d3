import type { FastifyPluginAsync } from 'fastify';
import type { LanguagePayload } from '../../engine/api-types.ts';
import { isLocale, locales } from '../../engine/i18n/locales.ts';
import { playerOf } from '../players/authenticate.ts';
import { statusOf, type UserRow } from '../players/users.ts';
import { badRequest, notFound } from '../core/http-errors.ts';
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
      if (language !== null && !isLocale(language)) throw badRequest(`language must be one of ${locales.join(', ')} or null`, 'language');
      const r = await ctx.db.query<UserRow>('UPDATE users SET language = $2 WHERE id = $1 RETURNING *', [playerOf(request).id, language]);
      const row = r.rows[0];
      if (row === undefined) throw notFound('User not found');
      return statusOf(row, ctx.clock.now());
    },
  );
};
