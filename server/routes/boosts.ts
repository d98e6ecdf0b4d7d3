import type { FastifyPluginAsync } from 'fastify';
import type { ClaimResult, UserStatus } from '../../engine/wire/api-types.ts';
import { boostKeys, economy } from '../../engine/rules/economy.ts';
import { playerOf, statusOf } from '../players/exports.ts';
import { buyLevel, buyReferralLevel, claimEaster, claimPassive, claimWelcome, isPurchasableKey, setForecast } from '../boosts/exports.ts';
import { refuse } from '../core/errors.ts';
import { int, obj } from './validation.ts';
import type { RouteContext } from './route-context.ts';
import { errorResponses, objectOf, playerSecurity as security, userStatusSchema } from './schemas.ts';

/** The player's actions on the balance: passive claims, purchases, one-off rewards and the forecast (server/boosts/). */
export const boostRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  const auth = { onRequest: ctx.authenticate };
  const statusAnswer = { 200: userStatusSchema, ...errorResponses };

  app.post(
    '/claim',
    {
      ...auth,
      schema: {
        summary: 'Claims passive income accrued since lastClaimedTime (at most 3 h of it)',
        tags: ['game'],
        security,
        response: { 200: objectOf<ClaimResult>()({ claimed: 'decimal', status: userStatusSchema }), ...errorResponses },
      },
    },
    async (request): Promise<ClaimResult> => {
      const now = ctx.clock.now();
      const { claimed, row } = await claimPassive(ctx.db, playerOf(request).id, now);
      return { claimed, status: statusOf(row, now) };
    },
  );

  app.post<{ Body: { levelKey: number } }>(
    '/update-level',
    {
      ...auth,
      schema: {
        summary: 'Buys one level of a boost (1 Handheld, 2 Limit, 3 Finger, 4–21 passive items); claims passive income first',
        tags: ['game'],
        security,
        body: obj({ levelKey: int(Math.min(...boostKeys), Math.max(...boostKeys), 'boost key') }, ['levelKey']),
        response: statusAnswer,
      },
    },
    async (request): Promise<UserStatus> => {
      const key = request.body.levelKey;
      if (!isPurchasableKey(key)) throw refuse('unknownLevelKey', { field: 'levelKey' });
      const now = ctx.clock.now();
      return statusOf(await buyLevel(ctx.db, ctx.puzzles, playerOf(request).id, key, now, ctx.config.REMINDERS_AWAY_MS), now);
    },
  );

  app.post<{ Querystring: { level: number } }>(
    '/update-ref-level',
    {
      ...auth,
      schema: {
        summary: 'Buys the next referral level (query level = that level) for MONEY',
        tags: ['referral'],
        security,
        querystring: obj({ level: int(1, economy.maxReferralLevel, 'the referral level to buy') }, ['level']),
        response: statusAnswer,
      },
    },
    async (request): Promise<UserStatus> => {
      const now = ctx.clock.now();
      return statusOf(await buyReferralLevel(ctx.db, playerOf(request).id, request.query.level, now), now);
    },
  );

  // The one-off rewards: each pays once and answers the new status.
  const oneOffRewards = [
    ['/claim-welcome-rw', 'Claims the welcome (account-age) reward, once', claimWelcome],
    ['/claim-easter-egg-rw', 'Claims the Easter-egg reward, once', claimEaster],
  ] as const;
  for (const [path, summary, claim] of oneOffRewards)
    app.post(path, { ...auth, schema: { summary, tags: ['rewards'], security, response: statusAnswer } }, async (request): Promise<UserStatus> => {
      const now = ctx.clock.now();
      return statusOf(await claim(ctx.db, playerOf(request).id, now), now);
    });

  app.post<{ Querystring: { days: number } }>(
    '/set-predict-wallet-coming',
    {
      ...auth,
      schema: {
        summary: 'Submits the wallet forecast in days, once per user',
        tags: ['rewards'],
        security,
        querystring: obj({ days: int(economy.forecastMinDays, economy.forecastMaxDays, 'days until the wallet arrives') }, ['days']),
        response: statusAnswer,
      },
    },
    async (request): Promise<UserStatus> => {
      const now = ctx.clock.now();
      return statusOf(await setForecast(ctx.db, playerOf(request).id, request.query.days, now), now);
    },
  );
};
