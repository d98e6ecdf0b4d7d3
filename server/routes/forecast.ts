/**
 * The wallet forecast's settlement (docs/api.md "Operator API", docs/admin.md "Forecast"): one action
 * (server/forecast/forecast.ts) at two doors, the operator API (OPERATOR_API_KEY in x-api-key, with
 * its key check and OpenAPI block from `operatorRoute`, schemas.ts) and the console's Forecast page.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ForecastSettlement, ForecastState } from '../../engine/wire/admin-types.ts';
import { operatorKeyActor } from '../audit/exports.ts';
import { actorOf } from '../console/exports.ts';
import { forecastSettlement, settleForecast } from '../forecast/exports.ts';
import { consoleScope, type RouteContext } from './route-context.ts';
import { consoleErrorResponses, errorResponses, nullable, objectOf, operatorRoute } from './schemas.ts';
import { noQuery, obj } from './validation.ts';

/** The settlement's body at both doors; the day's rule is parseLaunchDay's. */
const launchDayBody = obj({ launchDay: { type: 'string', maxLength: 10, description: 'YYYY-MM-DD (UTC): a real day of year 1 or later, not in the future' } }, ['launchDay']);

const settledSchema = objectOf<ForecastSettlement>()({ launchDay: 'string', settledAtMs: 'integer', paid: 'integer', paidTotal: 'integer' });
const stateSchema = objectOf<ForecastState>()({
  settlement: nullable(
    objectOf<NonNullable<ForecastState['settlement']>>()({ launchDay: 'string', settledAtMs: 'integer', settledBy: 'string', paidTotal: 'integer', forecasts: 'integer' }),
  ),
});

export const forecastRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  const route = operatorRoute(ctx);
  app.post<{ Body: { launchDay: string }; Reply: ForecastSettlement }>(
    '/public/settle-forecast',
    route('Sets the wallet launch day once and pays 7,777 MONEY to each right forecast, once (x-api-key: OPERATOR_API_KEY)', {
      tags: ['operator', 'public'],
      querystring: noQuery,
      body: launchDayBody,
      response: { 200: settledSchema, ...errorResponses },
    }),
    async (request) => settleForecast(ctx.db, operatorKeyActor, request.body.launchDay, ctx.clock.now()),
  );
  app.get<{ Reply: ForecastState }>(
    '/public/settle-forecast',
    route('The forecast settlement, if any (x-api-key)', { tags: ['operator', 'public'], response: { 200: stateSchema, ...errorResponses } }),
    async () => ({ settlement: await forecastSettlement(ctx.db) }),
  );
};

export const forecastConsoleRoutes = consoleScope(async (app, ctx) => {
  app.get<{ Reply: ForecastState }>('/forecast', { schema: { response: { 200: stateSchema, ...consoleErrorResponses } } }, async () => ({
    settlement: await forecastSettlement(ctx.db),
  }));
  app.post<{ Body: { launchDay: string }; Reply: ForecastSettlement }>(
    '/forecast/settle',
    { schema: { body: launchDayBody, response: { 200: settledSchema, ...consoleErrorResponses } } },
    async (request) => {
      const actor = actorOf(request);
      return settleForecast(ctx.db, actor, request.body.launchDay, ctx.clock.now());
    },
  );
});
