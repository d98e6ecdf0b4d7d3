/**
 * Ads (§7): GET /start-watch-ads, POST /claim-ads-reward, and Adsgram's server callback
 * GET /public/adsgram/reward?userid=&key=. See server/tasks/ads-rewards.ts for the dedupe rule.
 */
import type { FastifyPluginAsync } from 'fastify';
import { playerOf } from '../players/exports.ts';
import { claimWithToken, decodeEncryptData, loadAdsTask, loadTask, readAdsToken, rewardFromCallback, startAdWatch } from '../tasks/exports.ts';
import { refuse } from '../core/errors.ts';
import { int, obj } from './validation.ts';
import type { RouteContext } from './route-context.ts';
import { secretMatches } from '../core/secret-compare.ts';
import { playerSecurity } from './schemas.ts';

const authed = { security: playerSecurity, tags: ['ads'] };

export const adsRoutes: FastifyPluginAsync<RouteContext> = async (app, ctx) => {
  const secret = ctx.config.ADS_TOKEN_SECRET;
  // The player's refusal names no setting (adsUnconfigured); the operator reads it here, once.
  if (!secret) app.log.warn('ADS_TOKEN_SECRET is empty: /start-watch-ads and /claim-ads-reward refuse adsUnconfigured (docs/configuration.md)');
  const requireSecret = () => {
    if (!secret) throw refuse('adsUnconfigured');
  };
  const adsTask = async () => {
    const task = await loadAdsTask(ctx.db);
    if (task === null) throw refuse('noAdsTask');
    return task;
  };

  app.get('/start-watch-ads', { onRequest: ctx.authenticate, schema: { summary: 'A signed, single-use ad-watch token (text)', ...authed } }, async (request, reply) => {
    requireSecret();
    const token = await startAdWatch(ctx.db, secret, ctx.config.ADS_TOKEN_TTL_S * 1000, playerOf(request).id, await adsTask(), ctx.clock.now());
    // §7: "JSON or text; the mini-app treats it as a string".
    return reply.type('text/plain; charset=utf-8').send(token);
  });

  app.post(
    '/claim-ads-reward',
    {
      onRequest: ctx.authenticate,
      schema: {
        summary: 'Credits one ad view of the ADS task (10 a day)',
        ...authed,
        body: obj({ taskId: int(1, 2_147_483_647), encryptData: { type: 'string', minLength: 1, maxLength: 512 } }, ['taskId', 'encryptData']),
      },
    },
    async (request) => {
      requireSecret();
      const { taskId, encryptData } = request.body as { taskId: number; encryptData: string };
      const player = playerOf(request);
      const task = await loadTask(ctx.db, taskId, 'taskId');
      if (task.type !== 'ADS') throw refuse('notAnAdsTask', { field: 'taskId', values: { taskId } });
      const token = decodeEncryptData(encryptData);
      if (token === null) throw refuse('adTokenMalformed', { field: 'encryptData' });
      const read = readAdsToken(secret, token, ctx.clock.now());
      if (!read.ok) throw refuse(read.reason === 'expired' ? 'adTokenExpired' : 'adTokenInvalid', { field: 'encryptData' });
      if (read.claims.userId !== String(player.id)) throw refuse('adTokenForeign', { field: 'encryptData' });
      return claimWithToken(ctx.db, player.id, task, read.claims.nonce, ctx.clock.now());
    },
  );

  app.get(
    '/public/adsgram/reward',
    {
      schema: {
        summary: "Adsgram's server-to-server reward callback (needs the secret key)",
        tags: ['ads', 'public'],
        querystring: { type: 'object', properties: { userid: { type: 'string', pattern: '^[0-9]{1,19}$' }, key: { type: 'string', maxLength: 512 } }, required: ['userid'] },
      },
    },
    async (request) => {
      const { userid, key } = request.query as { userid: string; key?: string };
      if (!ctx.config.ADSGRAM_CALLBACK_KEY) throw refuse('adsgramUnconfigured');
      if (!secretMatches(key, ctx.config.ADSGRAM_CALLBACK_KEY)) throw refuse('adsgramWrongKey', { field: 'key' });
      const userId = Number(userid);
      if (!Number.isSafeInteger(userId)) throw refuse('adsgramBadUserId', { field: 'userid' });
      // Always 200 once authenticated, even when nothing is credited, so Adsgram stops retrying.
      return rewardFromCallback(ctx.db, userId, await adsTask(), ctx.clock.now());
    },
  );
};
