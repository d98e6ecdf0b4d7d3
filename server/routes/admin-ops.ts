/**
 * Console operations (docs/admin.md): the dashboard, broadcasts (compose to a segment, progress,
 * cancel), the forecast settlement and the airdrop snapshot, the same actions the operator API
 * calls (each writes its own audit row).
 * Registered inside the guarded console scope (server/routes/console.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import { actorOf, adminBroadcast, cancelBroadcast, enqueueSegmentBroadcast, parseSegment, readDashboard, recentBroadcasts } from '../console/exports.ts';
import { parseBroadcast } from '../bot/exports.ts';
import type { RoundParams } from '../../engine/admin-types.ts';
import { latestBuiltRound, takeAirdropSnapshot, withRootInt } from '../airdrop/exports.ts';
import { excludedMoneySchema } from './airdrop.ts';
import { forecastSettlement, settleForecast } from '../forecast/exports.ts';
import type { AdminContext } from './admin-context.ts';
import { broadcastBody, launchDayBody } from './forecast.ts';
import { int, obj, rowId } from './validation.ts';

// broadcasts.id is a BIGSERIAL, answered as a number (exact up to 2^53−1).
const idParam = obj({ id: rowId }, ['id']);
/** A segment's fields, typed (days a number, never "30"); which kind takes which field, and the ranges, are parseSegment's. */
const segmentSchema = obj(
  {
    kind: { type: 'string', enum: ['all', 'language', 'active', 'test'] },
    languageCode: { type: 'string', maxLength: 16 },
    days: { type: 'integer' },
    userIds: { type: 'array', maxItems: 1_000, items: { type: 'string', maxLength: 32 } },
  },
  ['kind'],
);

export const adminOpsRoutes: FastifyPluginAsync<AdminContext> = async (app, ctx) => {
  app.get('/dashboard', async () => readDashboard(ctx.reads));

  app.get('/broadcasts', async () => ({ items: await recentBroadcasts(ctx.db) }));
  app.get('/broadcasts/:id', { schema: { params: idParam } }, async (request) => adminBroadcast(ctx.db, (request.params as { id: number }).id));
  app.post('/broadcasts', { schema: { body: obj({ ...broadcastBody.properties, segment: segmentSchema }) } }, async (request, reply) => {
    const b = request.body as { message?: unknown; btns?: unknown; segment?: unknown };
    const parsed = parseBroadcast({ message: b.message, btns: b.btns });
    if (!parsed.ok) throw parsed.refusal;
    const segment = parseSegment(b.segment);
    const queued = await enqueueSegmentBroadcast(ctx.db, actorOf(request), parsed.broadcast, segment, ctx.clock.now());
    return reply.status(202).send(queued);
  });
  // No body: the console scope's schema default (server/routes/console.ts) refuses any field.
  app.post('/broadcasts/:id/cancel', { schema: { params: idParam } }, async (request) => {
    const { id } = request.params as { id: number };
    const cancelled = await cancelBroadcast(ctx.db, actorOf(request), id, ctx.clock.now());
    return { id, cancelled };
  });

  app.get('/forecast', async () => ({ settlement: await forecastSettlement(ctx.db) }));
  app.post('/forecast/settle', { schema: { body: launchDayBody } }, async (request) => {
    const actor = actorOf(request);
    return settleForecast(ctx.db, actor, (request.body as { launchDay: string }).launchDay, ctx.clock.now());
  });

  const unixS = int(0, 2 ** 48 - 1);
  app.get('/airdrop', async () => {
    const round = await latestBuiltRound(ctx.db);
    return { latest: round === null ? null : withRootInt(round) };
  });
  app.post(
    '/airdrop/snapshot',
    {
      schema: {
        body: obj({ round: int(1, 1_000_000), startFrom: unixS, expireAt: unixS, excludedMoney: excludedMoneySchema }, ['round', 'startFrom', 'expireAt']),
      },
    },
    async (request) => {
      const params = request.body as RoundParams;
      // The same action as POST /public/airdrop/snapshot (docs/airdrop.md); the build takes seconds per 100,000 wallets.
      const actor = actorOf(request);
      const { summary, created } = await takeAirdropSnapshot({ db: ctx.db, served: ctx.airdrop, countsBoughtBoosts: ctx.config.AIRDROP_COUNTS_BOUGHT_BOOSTS }, actor, params, ctx.clock.now());
      return { ...withRootInt(summary), created };
    },
  );
};
