/**
 * X account (§7): GET /social-login?redirect_to= → { authUrl }; GET /callback/twitter (X sends the
 * browser here, so no Telegram auth: the state names the player); GET /check-x-connect.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { SocialConnect } from '../../engine/wire/api-types.ts';
import { loadUser, playerOf, statusOf } from '../players/exports.ts';
import { refuse } from '../core/errors.ts';
import type { RouteContext } from './route-context.ts';
import { beginXLogin, completeXLogin } from '../x-account/exports.ts';
import { errorResponses, objectOf, playerSecurity } from './schemas.ts';

const socialConnectSchema = objectOf<SocialConnect>()(
  { twUsername: 'string?', twAge: 'integer', twAvatar: 'string?', pendingClaimReward: 'string' },
  ['twUsername', 'twAge', 'twAvatar', 'pendingClaimReward'],
);

export const xAccountRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  const deps = { db: ctx.db, config: ctx.config, clock: ctx.clock };

  app.get<{ Querystring: { redirect_to: string }; Reply: { authUrl: string } }>(
    '/social-login',
    {
      onRequest: ctx.authenticate,
      schema: {
        summary: 'The X OAuth 2 (PKCE) consent URL',
        tags: ['x'],
        security: playerSecurity,
        querystring: { type: 'object', properties: { redirect_to: { type: 'string', minLength: 1, maxLength: 2048 } }, required: ['redirect_to'] },
        response: { 200: objectOf<{ authUrl: string }>()({ authUrl: 'string' }, ['authUrl']), ...errorResponses },
      },
    },
    async (request) => {
      return beginXLogin(deps, playerOf(request).id, request.query.redirect_to);
    },
  );

  app.get<{ Querystring: { state: string; code?: string; error?: string; error_description?: string } }>(
    '/callback/twitter',
    {
      schema: {
        summary: "X's OAuth 2 redirect: links the account and redirects to redirect_to",
        tags: ['x', 'public'],
        querystring: {
          type: 'object',
          properties: {
            state: { type: 'string', minLength: 1, maxLength: 256 },
            code: { type: 'string', maxLength: 2048 },
            error: { type: 'string', maxLength: 256 },
            error_description: { type: 'string', maxLength: 2048 },
          },
          required: ['state'],
        },
      },
    },
    async (request, reply) => {
      const q = request.query;
      if (!q.code && !q.error) throw refuse('requiredParameter', { field: 'code' });
      return reply.redirect((await completeXLogin(deps, q)).redirect, 302);
    },
  );

  app.get<{ Reply: SocialConnect }>(
    '/check-x-connect',
    {
      onRequest: ctx.authenticate,
      schema: { summary: 'The linked X account and the pending claim reward', tags: ['x'], security: playerSecurity, response: { 200: socialConnectSchema, ...errorResponses } },
    },
    async (request): Promise<SocialConnect> => {
      const status = statusOf(await loadUser(ctx.db, playerOf(request).id), ctx.clock.now());
      return { twUsername: status.twUsername, twAge: status.twAge, twAvatar: status.twAvatar, pendingClaimReward: status.pendingClaimReward };
    },
  );
};
