import type { FastifyPluginAsync } from 'fastify';
import type { AdminDailyDay, DailyCounts, DailyPuzzleInput } from '../../engine/wire/admin-types.ts';
import type { CipherGuessPayload, CipherGuessResult, DailyClaimResult, RemindersPayload, UserStatus } from '../../engine/wire/api-types.ts';
import { dayOfIso, utcDayOf } from '../../engine/rules/daily.ts';
import { economy } from '../../engine/rules/economy.ts';
import { refuse } from '../core/errors.ts';
import { actorOf } from '../console/exports.ts';
import { claimStreak, dailyMaxDaysListed, dailySecretOf, guessCipher, listDailyDays, setDailyPuzzle, setReminders } from '../daily/exports.ts';
import { playerOf, statusOf } from '../players/exports.ts';
import { int, obj } from './validation.ts';
import { consoleScope, type RouteContext } from './route-context.ts';
import { arrayOf, consoleErrorResponses, enumOf, errorResponses, errorSchema, itemsOf, objectOf, playerRoute, userStatusSchema } from './schemas.ts';

const claimAnswer = { 200: objectOf<DailyClaimResult>()({ claimed: 'decimal', status: userStatusSchema }), ...errorResponses };

/**
 * The daily loop (docs/rules.md §15): the streak's claim, a cipher guess and the reminders switch.
 * The combo has no route: it is found by upgrading (server/boosts/). The status carries the day.
 * The console's Daily page is `dailyConsoleRoutes` below.
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

const isoDaySchema = { type: 'string', maxLength: 10, description: 'a UTC day, YYYY-MM-DD' } as const;
/** Before the past week and the coming week: the default window. */
const daysBack = 7;

const dayAnswer = objectOf<AdminDailyDay>()({
  day: 'string',
  state: enumOf(['past', 'today', 'coming']),
  combo: arrayOf('integer'),
  comboSetBy: 'string?',
  cipher: 'string',
  cipherSetBy: 'string?',
  counts: objectOf<DailyCounts>()({
    streakClaims: 'integer',
    comboFinds: 'integer',
    comboWins: 'integer',
    cipherWins: 'integer',
    cipherMisses: 'integer',
    remindersQueued: 'integer',
    remindersBlocked: 'integer',
  }),
});

/** The daily loop in the console (docs/admin.md "Daily"): each day's combo, word and counts, and setting coming days. */
export const dailyConsoleRoutes = consoleScope(async (app, ctx) => {
  const secret = dailySecretOf(ctx.config);

  app.get<{ Querystring: { from?: string; days?: number }; Reply: { items: AdminDailyDay[] } }>(
    '/daily',
    { schema: { querystring: obj({ from: isoDaySchema, days: int(1, dailyMaxDaysListed) }), response: { 200: itemsOf(dayAnswer), ...consoleErrorResponses } } },
    async (request) => {
    const q = request.query;
    const now = ctx.clock.now();
    const from = q.from === undefined ? utcDayOf(now) - daysBack : dayOfIso(q.from);
    if (from === null) throw refuse('dailyDayFormat', { field: 'from' });
    return { items: await listDailyDays(ctx.db, secret, from, q.days ?? 2 * daysBack + 1, now) };
    },
  );

  app.put<{ Params: { day: string }; Body: DailyPuzzleInput; Reply: AdminDailyDay }>(
    '/daily/:day',
    {
      schema: {
        params: obj({ day: isoDaySchema }, ['day']),
        body: obj({
          combo: { type: ['array', 'null'], maxItems: economy.dailyComboCards, items: { type: 'integer' }, description: 'three different passive cards, keys 4–21' },
          cipher: { type: ['string', 'null'], maxLength: economy.dailyCipherMaxLetters, description: 'a word of letters A–Z' },
        }),
        response: { 200: dayAnswer, ...consoleErrorResponses },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return setDailyPuzzle(ctx.db, secret, actor, request.params.day, request.body, ctx.clock.now());
    },
  );
});
