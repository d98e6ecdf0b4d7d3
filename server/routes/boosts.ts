import type { FastifyPluginAsync } from 'fastify';
import type { ClaimResult, ClickResult, UserStatus } from '../../engine/api-types.ts';
import { boostKeys, economy } from '../../engine/economy.ts';
import { playerOf, statusOf } from '../players/exports.ts';
import { buyLevel, buyReferralLevel, claimEaster, claimPassive, claimWelcome, isPurchasableKey, setForecast } from '../boosts/exports.ts';
import { deviceIdHeader, deviceIdPattern } from '../../engine/airdrop-review.ts';
import { refuse } from '../core/errors.ts';
import { int, obj } from './validation.ts';
import type { RouteContext } from './route-context.ts';
import { errorResponses, objectOf, playerSecurity as security, userStatusSchema } from './schemas.ts';


/** The clicker: taps, passive claims, purchases, one-off rewards and the forecast. */
export const playerActionRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  const auth = { onRequest: ctx.authenticate };
  const statusAnswer = { 200: userStatusSchema, ...errorResponses };

  app.post<{ Body: { click: number; batchId?: string; seq?: number; firstTapMs?: number }; Headers: { [deviceIdHeader]?: string } }>(
    '/click',
    {
      ...auth,
      schema: {
        summary: 'A batch of taps; accepted = min(click, energy, human-rate allowance); idempotent by batchId',
        tags: ['game'],
        security,
        headers: {
          type: 'object',
          properties: { [deviceIdHeader]: { type: 'string', pattern: deviceIdPattern, description: 'the random device id the mini-app keeps in web storage (docs/airdrop.md)' } },
        },
        body: obj(
          {
            click: int(1, 100_000, 'taps in this batch'),
            batchId: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,64}$', description: 'idempotency key: a replay returns the first answer' },
            seq: int(0, 2 ** 31 - 1, 'per-session sequence number'),
            firstTapMs: int(0, Number.MAX_SAFE_INTEGER, "the device's clock (ms) at the batch's first tap, for the review's cadence (docs/airdrop.md)"),
          },
          ['click'],
        ),
        response: {
          200: objectOf<ClickResult>()({ batchId: 'string?', accepted: 'integer', status: userStatusSchema }),
          ...errorResponses,
        },
      },
    },
    async (request): Promise<ClickResult> => {
      const { click, batchId, firstTapMs } = request.body;
      const deviceId = request.headers[deviceIdHeader] ?? null;
      const a = await ctx.clicks.submit({ userId: playerOf(request).id, click, batchId: batchId ?? null, firstTapMs: firstTapMs ?? null, deviceId });
      return { batchId: batchId ?? null, accepted: a.accepted, status: statusOf(a.row, a.nowMs) };
    },
  );

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
