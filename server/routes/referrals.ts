import type { FastifyPluginAsync } from 'fastify';
import type { UserStatus } from '../../engine/wire/api-types.ts';
import { economy } from '../../engine/rules/economy.ts';
import { loadUser, playerOf, statusOf } from '../players/exports.ts';
import { listFriends, maxPageSize, prepareInvite, refLinkOf, registerReferral } from '../referrals/exports.ts';
import { int, obj } from './validation.ts';
import type { RouteContext } from './route-context.ts';
import { decimalSchema, errorResponses, friendSchema, pageOf, playerRoute, preparedInviteSchema, userStatusSchema } from './schemas.ts';

/** The page query of the friends list and the leaderboard. */
export const paging = {
  page: { ...int(1, 1_000_000, '1-based page number'), default: 1 },
  pageSize: { ...int(1, maxPageSize, `items per page (default ${economy.pageSize})`), default: economy.pageSize },
};

/** Referrals, friends and the referral link. */
export const referralRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  const route = playerRoute(ctx);

  app.post<{ Querystring: { refcode: string } }>(
    '/referral',
    route('referral', 'Registers the player’s referrer by refcode (once; no self-referral, no cycles, within the friend limit)', {
      querystring: obj({ refcode: { type: 'string', pattern: `^[A-Za-z0-9]{${economy.refcodeLength}}$` } }, ['refcode']),
      response: { 200: userStatusSchema, ...errorResponses },
    }),
    async (request): Promise<UserStatus> => {
      const now = ctx.clock.now();
      return statusOf(await registerReferral(ctx.db, playerOf(request).id, request.query.refcode, now), now);
    },
  );

  app.get<{ Querystring: { page: number; pageSize: number } }>(
    '/get-ref-users',
    route('referral', 'The player’s friends, 10 a page, newest first; `pending` counts friends whose invite bonus waits; `totalBonus` is Invite’s Total Bonus (totalRef + totalMoneyRef), read with the page', {
      querystring: obj(paging),
      response: {
        200: { type: 'object', properties: { ...pageOf(friendSchema).properties, pending: { type: 'integer' }, totalBonus: decimalSchema } },
        ...errorResponses,
      },
    }),
    async (request) => listFriends(ctx.reads, playerOf(request).id, request.query.page, request.query.pageSize),
  );

  app.get(
    '/get-my-refLink',
    route('referral', 'The player’s referral link', {
      response: { 200: { type: 'object', properties: { refcode: { type: 'string' }, refLink: { type: 'string' } } }, ...errorResponses },
    }),
    async (request) => {
      const row = await loadUser(ctx.db, playerOf(request).id);
      return { refcode: row.refcode, refLink: refLinkOf(ctx.config.BOT_USERNAME, ctx.config.MINI_APP_NAME, row.refcode) };
    },
  );

  app.post(
    '/invite/prepared',
    route('referral', 'Prepares the player’s invite as a rich message (Bot API savePreparedInlineMessage) for WebApp.shareMessage; 503 when Telegram cannot', {
      response: { 200: preparedInviteSchema, ...errorResponses },
    }),
    async (request) => {
      const player = playerOf(request);
      return prepareInvite(ctx.db, ctx.config, player.id, player.initData);
    },
  );
};
