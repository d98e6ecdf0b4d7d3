import type { FastifyPluginAsync } from 'fastify';
import type { ClickResult } from '../../engine/wire/api-types.ts';
import { deviceIdHeader, deviceIdPattern } from '../../engine/wire/airdrop-review.ts';
import { playerOf, statusOf } from '../players/exports.ts';
import { int, obj } from './validation.ts';
import type { RouteContext } from './route-context.ts';
import { errorResponses, objectOf, playerSecurity as security, userStatusSchema } from './schemas.ts';

/** POST /click: a batch of taps into the app's click queue (server/clicks/clicks.ts). */
export const clickRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  const auth = { onRequest: ctx.authenticate };

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
};
