import type { FastifyPluginAsync } from 'fastify';
import type { CipherGuessPayload, CipherGuessResult, DailyClaimResult, RemindersPayload, UserStatus } from '../../engine/wire/api-types.ts';
import { economy } from '../../engine/rules/economy.ts';
import { claimStreak, guessCipher, setReminders } from '../daily/exports.ts';
import { playerOf, statusOf } from '../players/exports.ts';
import { obj } from './validation.ts';
import type { RouteContext } from './route-context.ts';
import { errorResponses, errorSchema, objectOf, playerRoute, userStatusSchema } from './schemas.ts';

const claimAnswer = { 200: objectOf<DailyClaimResult>()({ claimed: 'decimal', status: userStatusSchema }), ...errorResponses };

/**
 * The daily loop (docs/rules.md §15): the streak's claim, a cipher guess and the reminders switch.
 * The combo has no route: it is found by upgrading (server/boosts/). The status carries the day.
 */
export const dailyRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  const route = playerRoute(ctx);

  app.post(
    '/daily/streak',
    route('daily', "Claims today's streak reward, once a UTC day", { response: claimAnswer }),
    async (request): Promise<DailyClaimResult> => {
      const now = ctx.clock.now();
      const { claimed, row } = await claimStreak(ctx.db, playerOf(request).id, now, ctx.config.REMINDERS_AWAY_MS);
      return { claimed, status: statusOf(row, now) };
    },
  );

  app.post<{ Body: CipherGuessPayload }>(
    '/daily/cipher',
    route('daily', "A guess of today's cipher word; pays once a day; wrong guesses are limited", {
      body: obj(
        { word: { type: 'string', pattern: `^[A-Za-z]{1,${economy.dailyCipherMaxLetters}}$`, description: 'the word entered in Morse, letters A–Z' } },
        ['word'],
      ),
      response: {
        200: objectOf<CipherGuessResult>()({ correct: 'boolean', claimed: 'decimal', status: userStatusSchema }),
        ...errorResponses,
        429: errorSchema,
      },
    }),
    async (request): Promise<CipherGuessResult> => {
      const now = ctx.clock.now();
      const { correct, claimed, row } = await guessCipher(ctx.db, ctx.puzzles, playerOf(request).id, request.body.word, now);
      return { correct, claimed, status: statusOf(row, now) };
    },
  );

  app.post<{ Body: RemindersPayload }>(
    '/daily/reminders',
    route('daily', 'Turns the bot’s reminders on or off (the profile card’s switch)', {
      body: obj({ on: { type: 'boolean', description: 'true: the bot may remind; false: never' } }, ['on']),
      response: { 200: userStatusSchema, ...errorResponses },
    }),
    async (request): Promise<UserStatus> => {
      const now = ctx.clock.now();
      return statusOf(await setReminders(ctx.db, playerOf(request).id, request.body.on, now, ctx.config.REMINDERS_AWAY_MS), now);
    },
  );
};
