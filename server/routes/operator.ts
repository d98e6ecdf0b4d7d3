/**
 * The operator API (docs/api.md): actions an operator runs with OPERATOR_API_KEY in x-api-key,
 * the same way broadcasts are queued. Today: settling the wallet forecast, through the same action
 * (server/forecast/forecast.ts) as the console's Forecast page.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { operatorKeyActor } from '../console/audit.ts';
import { forecastSettlement, settleForecast } from '../forecast/forecast.ts';
import { refuse } from '../core/errors.ts';
import type { RouteContext } from './route-context.ts';
import { secretMatches } from '../core/secret-compare.ts';
import { noQuery, obj } from './validation.ts';

export const apiKeyHeader = { type: 'object', properties: { 'x-api-key': { type: 'string', maxLength: 512 } }, required: ['x-api-key'] } as const;

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

/** Every operator route (the forecast here, the airdrop snapshot) takes OPERATOR_API_KEY in x-api-key; empty closes them. */
export const requireOperatorKey = (ctx: RouteContext, request: FastifyRequest): void => {
  if (!ctx.config.OPERATOR_API_KEY) throw refuse('operatorApiUnconfigured');
  if (!secretMatches(request.headers['x-api-key'], ctx.config.OPERATOR_API_KEY)) throw refuse('wrongApiKey', { field: 'x-api-key' });
};

export const operatorRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  app.post(
    '/public/settle-forecast',
    {
      schema: {
        summary: 'Sets the wallet launch day once and pays 7,777 MONEY to each right forecast, once (x-api-key: OPERATOR_API_KEY)',
        tags: ['operator', 'public'],
        headers: apiKeyHeader,
        querystring: noQuery,
        body: launchDayBody,
        response: {
          200: { type: 'object', properties: { launchDay: { type: 'string' }, settledAtMs: { type: 'integer' }, paid: { type: 'integer' }, paidTotal: { type: 'integer' } } },
        },
      },
    },
    async (request) => {
      requireOperatorKey(ctx, request);
      return settleForecast(ctx.db, operatorKeyActor, (request.body as { launchDay: unknown }).launchDay, ctx.clock.now());
    },
  );
  app.get('/public/settle-forecast', { schema: { summary: 'The forecast settlement, if any (x-api-key)', tags: ['operator', 'public'], headers: apiKeyHeader } }, async (request) => {
    requireOperatorKey(ctx, request);
    return { settlement: await forecastSettlement(ctx.db) };
  });
};
