/**
 * The operator API (docs/api.md): actions an operator runs with OPERATOR_API_KEY in x-api-key,
 * the same way broadcasts are queued. Here: settling the wallet forecast, through the same action
 * (server/forecast/forecast.ts) as the console's Forecast page; the airdrop's operator routes are
 * in airdrop.ts and integrity.ts. Each takes its key check and OpenAPI block from `operatorRoute`
 * (schemas.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import { operatorKeyActor } from '../audit/exports.ts';
import { forecastSettlement, settleForecast } from '../forecast/exports.ts';
import type { RouteContext } from './route-context.ts';
import { operatorRoute } from './schemas.ts';
import { noQuery, obj } from './validation.ts';

/** The settlement's body at both doors (the console's Forecast page and this API); the day's rule is parseLaunchDay's. */
export const launchDayBody = obj({ launchDay: { type: 'string', maxLength: 10, description: 'YYYY-MM-DD (UTC): a real day of year 1 or later, not in the future' } }, ['launchDay']);

/** A broadcast's message and buttons (POST /public/send-telemss and the console), typed; their rules are parseBroadcast's. */
export const broadcastBody = obj({
  message: { type: 'string', maxLength: 16_384 },
  btns: {
    type: 'array',
    maxItems: 100,
    items: obj({ btnType: { type: 'string', maxLength: 16 }, btnText: { type: 'string', maxLength: 1_000 }, btnLink: { type: 'string', maxLength: 2_048 } }),
  },
});

export const operatorRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
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
