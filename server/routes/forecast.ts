/**
 * The wallet forecast's settlement (docs/api.md "Operator API", docs/admin.md "Forecast"): one action
 * (server/forecast/forecast.ts) at two doors, the operator API (OPERATOR_API_KEY in x-api-key, with
 * its key check and OpenAPI block from `operatorRoute`, schemas.ts) and the console's Forecast page.
 */
import type { FastifyPluginAsync } from 'fastify';
import { operatorKeyActor } from '../audit/exports.ts';
import { actorOf } from '../console/exports.ts';
import { forecastSettlement, settleForecast } from '../forecast/exports.ts';
import { consoleScope, type RouteContext } from './route-context.ts';
import { operatorRoute } from './schemas.ts';
import { noQuery, obj } from './validation.ts';

/** The settlement's body at both doors; the day's rule is parseLaunchDay's. */
const launchDayBody = obj({ launchDay: { type: 'string', maxLength: 10, description: 'YYYY-MM-DD (UTC): a real day of year 1 or later, not in the future' } }, ['launchDay']);

export const forecastRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  const route = operatorRoute(ctx);
  app.post(
    '/public/settle-forecast',
    route('Sets the wallet launch day once and pays 7,777 MONEY to each right forecast, once (x-api-key: OPERATOR_API_KEY)', {
      tags: ['operator', 'public'],
      querystring: noQuery,
      body: launchDayBody,
      response: {
        200: { type: 'object', properties: { launchDay: { type: 'string' }, settledAtMs: { type: 'integer' }, paid: { type: 'integer' }, paidTotal: { type: 'integer' } } },
      },
    }),
    async (request) => settleForecast(ctx.db, operatorKeyActor, (request.body as { launchDay: unknown }).launchDay, ctx.clock.now()),
  );
  app.get('/public/settle-forecast', route('The forecast settlement, if any (x-api-key)', { tags: ['operator', 'public'] }), async () => ({
    settlement: await forecastSettlement(ctx.db),
  }));
};

export const forecastConsoleRoutes = consoleScope(async (app, ctx) => {
  app.get('/forecast', async () => ({ settlement: await forecastSettlement(ctx.db) }));
  app.post('/forecast/settle', { schema: { body: launchDayBody } }, async (request) => {
    const actor = actorOf(request);
    return settleForecast(ctx.db, actor, (request.body as { launchDay: string }).launchDay, ctx.clock.now());
  });
});
