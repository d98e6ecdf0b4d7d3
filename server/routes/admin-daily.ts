/**
 * The daily loop in the console (docs/admin.md "Daily"): each day's combo, word and counts, and
 * setting coming days. Registered inside the guarded console scope (server/routes/console.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { DailyPuzzleInput } from '../../engine/admin-types.ts';
import { dayOfIso, utcDayOf } from '../../engine/daily.ts';
import { economy } from '../../engine/economy.ts';
import { dailySecretOf } from '../core/config/daily-config.ts';
import { refuse } from '../core/errors.ts';
import { actorOf } from '../console/exports.ts';
import { dailyMaxDaysListed, listDailyDays, setDailyPuzzle } from '../daily/exports.ts';
import type { AdminContext } from './admin-context.ts';
import { int, obj } from './validation.ts';

const isoDaySchema = { type: 'string', maxLength: 10, description: 'a UTC day, YYYY-MM-DD' } as const;
/** Before the past week and the coming week: the default window. */
const daysBack = 7;

export const adminDailyRoutes: FastifyPluginAsync<AdminContext> = async (app, ctx) => {
  const secret = dailySecretOf(ctx.config);

  app.get('/daily', { schema: { querystring: obj({ from: isoDaySchema, days: int(1, dailyMaxDaysListed) }) } }, async (request) => {
    const q = request.query as { from?: string; days?: number };
    const now = ctx.clock.now();
    const from = q.from === undefined ? utcDayOf(now) - daysBack : dayOfIso(q.from);
    if (from === null) throw refuse('dailyDayFormat', { field: 'from' });
    return { items: await listDailyDays(ctx.db, secret, from, q.days ?? 2 * daysBack + 1, now) };
  });

  app.put(
    '/daily/:day',
    {
      schema: {
        params: obj({ day: isoDaySchema }, ['day']),
        body: obj({
          combo: { type: ['array', 'null'], maxItems: economy.dailyComboCards, items: { type: 'integer' }, description: 'three different passive cards, keys 4–21' },
          cipher: { type: ['string', 'null'], maxLength: economy.dailyCipherMaxLetters, description: 'a word of letters A–Z' },
        }),
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return setDailyPuzzle(ctx.db, secret, actor, (request.params as { day: string }).day, request.body as DailyPuzzleInput, ctx.clock.now());
    },
  );
};
