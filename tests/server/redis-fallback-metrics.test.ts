/**
 * money_redis_rank_fallbacks_total (docs/operations.md, MoneyRedisRankFallbacks): a leaderboard page
 * read from PostgreSQL although REDIS_URL is set is counted by its reason. Redis that cannot be
 * reached is "unavailable"; a reachable Redis (TEST_REDIS_URL) before the ranks job published the
 * sorted set is "unpublished". The page itself is answered either way.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { leaderboardMetrics } from '../../server/leaderboard/exports.ts';
import { openRedis, type RedisHandle } from '../../server/core/redis.ts';
import { harnessOn, openHarness, type Harness } from './harness.ts';

const fallbacks = async (reason: string) => (await leaderboardMetrics.rankFallbacks.get()).values.find((v) => v.labels.reason === reason)?.value ?? 0;

const redisUrl = process.env.TEST_REDIS_URL;

describe('Redis rank fall-backs', () => {
  let base: Harness | undefined;
  const opened: { h: Harness; redis: RedisHandle }[] = [];
  afterAll(async () => {
    for (const o of opened) {
      await o.h.close();
      await o.redis.close();
    }
    await base?.close();
  });
  // One database; an app for each Redis.
  const withRedis = async (url: string) => {
    base ??= await openHarness('pglite');
    const redis = openRedis(url, { prefix: `money-test:${randomBytes(6).toString('hex')}:`, connectTimeoutMs: 200, log: () => {} });
    const h = await harnessOn(base.db, base.config, base.clock, undefined, false, redis);
    opened.push({ h, redis });
    return { h, redis };
  };

  it('counts a page read while Redis cannot be reached as "unavailable"', async () => {
    const { h } = await withRedis('redis://127.0.0.1:1');
    const before = await fallbacks('unavailable');
    const r = await h.call('GET', '/leaderboard', await h.newPlayer());
    expect(r.statusCode).toBe(200);
    expect(await fallbacks('unavailable')).toBe(before + 1);
  });

  it.skipIf(redisUrl === undefined)('counts a page read before the sorted set is published as "unpublished"', async () => {
    const { h, redis } = await withRedis(redisUrl!);
    expect(await redis.waitReady(5_000)).toBe(true);
    const before = await fallbacks('unpublished');
    const r = await h.call('GET', '/leaderboard', await h.newPlayer());
    expect(r.statusCode).toBe(200);
    expect(await fallbacks('unpublished')).toBe(before + 1);
  });
});
