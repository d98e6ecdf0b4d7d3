import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaderboardEntry, Page } from '../../engine/wire/api-types.ts';
import { ranksKey } from '../../server/leaderboard/redis-ranks.ts';
import { rebuildRanks } from '../../server/leaderboard/rank-view.ts';
import { ranksJob } from '../../server/leaderboard/ranks-job.ts';
import { openRedis, type RedisHandle } from '../../server/core/redis.ts';
import { setBalances } from './db-helpers.ts';
import { backends, harnessOn, openHarness, type Harness } from './harness.ts';

/** Redis variants run when TEST_REDIS_URL is set (.ci/run sets it to the machine's Redis). */
const redisUrl = process.env.TEST_REDIS_URL;
const variants = backends.flatMap((b) => [{ backend: b, redis: false }, ...(redisUrl ? [{ backend: b, redis: true }] : [])]);

type Board = Page<LeaderboardEntry>;

describe.each(variants)('leaderboard ranks ($backend, redis $redis)', ({ backend, redis: withRedis }) => {
  let base: Harness;
  let h: Harness;
  let redis: RedisHandle | undefined;
  let tick: (nowMs: number) => Promise<unknown>;
  // 23 players: money falls by 100 every two players, so each pair ties and breaks by id.
  const players: { id: number; money: number }[] = [];

  beforeAll(async () => {
    base = await openHarness(backend);
    if (withRedis) {
      redis = openRedis(redisUrl!, { prefix: `money-test:${randomBytes(6).toString('hex')}:` });
      expect(await redis.waitReady(5_000)).toBe(true);
    }
    h = await harnessOn(base.db, base.config, base.clock, undefined, false, redis);
    tick = ranksJob(base.db, redis);
    for (let i = 0; i < 23; i++) {
      const id = h.newUserId();
      await h.call('GET', '', id);
      const money = 5_000 - Math.floor(i / 2) * 100;
      await setBalances(h.db, id, { totalMoney: String(money) });
      players.push({ id, money });
    }
    await rebuild();
  });
  afterAll(async () => {
    if (redis !== undefined) {
      await redis.client.del(ranksKey(redis));
      await redis.close();
    }
    await h?.close();
    await base?.close();
  });

  /** The ranks job's next tick (every second in production) applies what changed since the last. */
  const rebuild = async () => {
    h.clock.advance(1_000);
    await tick(h.clock.now());
  };
  const board = async (id: number, page = 1): Promise<Board> => {
    const r = await h.call('GET', '/leaderboard', id, { query: { page: String(page) } });
    expect(r.statusCode).toBe(200);
    return r.json<Board>();
  };
  const expectedOrder = () => [...players].sort((a, b) => b.money - a.money || a.id - b.id).map((p) => String(p.id));

  it('ranks by MONEY, ties by id, 10 a page, with ranks 1…n and the total', async () => {
    const me = players[0]!.id;
    const pages = await Promise.all([1, 2, 3].map((p) => board(me, p)));
    const listed = pages.flatMap((p) => p.items.slice(1));
    expect(listed.map((e) => e.id)).toEqual(expectedOrder());
    expect(listed.map((e) => e.rank)).toEqual(Array.from({ length: 23 }, (_, i) => i + 1));
    expect(pages.map((p) => p.total)).toEqual([23, 23, 23]);
    expect(pages[2]!.items).toHaveLength(4);
    // The tied pair 5000/5000: the lower id first.
    expect(listed[0]!.reward).toBe('5000');
    expect(listed[1]!.reward).toBe('5000');
    expect(Number(listed[0]!.id)).toBeLessThan(Number(listed[1]!.id));
  });

  it('gives every player an own rank that agrees with the page it is on', async () => {
    for (const p of players) {
      const own = (await board(p.id)).items[0]!;
      expect(own.id).toBe(String(p.id));
      const onPage = (await board(p.id, Math.ceil(own.rank / 10))).items.slice(1).find((e) => e.rank === own.rank);
      expect(onPage).toMatchObject({ id: own.id, reward: own.reward });
    }
  });

  it('moves a player up on the ranks job\'s next tick, not before', async () => {
    const climber = players[20]!;
    climber.money = 9_000;
    await setBalances(h.db, climber.id, { totalMoney: '9000' });
    // Until the tick, the page and the own rank are still the last version's.
    const before = (await board(climber.id)).items[0]!;
    expect(before).toMatchObject({ rank: 21, reward: '4000' });
    await rebuild();
    const after = await board(climber.id);
    expect(after.items[0]).toMatchObject({ id: String(climber.id), rank: 1, reward: '9000' });
    expect(after.items[1]).toMatchObject({ id: String(climber.id), rank: 1 });
    expect(after.items.slice(1).map((e) => e.id)).toEqual(expectedOrder().slice(0, 10));
  });

  it('shows a player who joined since the last tick below the ranked players, then ranks them', async () => {
    const late = h.newUserId();
    await h.call('GET', '', late);
    const own = (await board(late)).items[0]!;
    expect(own).toMatchObject({ id: String(late), rank: 24 });
    await rebuild();
    players.push({ id: late, money: 0 });
    const ranked = await board(late, 3);
    expect(ranked.total).toBe(24);
    expect(ranked.items[0]).toMatchObject({ id: String(late), rank: 24 });
    expect(ranked.items.at(-1)).toMatchObject({ id: String(late), rank: 24 });
  });

  it('answers a page past the end with only the own entry', async () => {
    const b = await board(players[0]!.id, 1_000);
    expect(b.items).toHaveLength(1);
    expect(b.total).toBe(24);
  });

  it.each([
    [{ page: '0' }, 'page'],
    [{ page: '-1' }, 'page'],
    [{ page: '1.5' }, 'page'],
    [{ page: 'abc' }, 'page'],
    [{ page: '1000001' }, 'page'],
    [{ pageSize: '0' }, 'pageSize'],
    [{ pageSize: '51' }, 'pageSize'],
    [{ cursor: 'x' }, 'cursor'],
  ])('refuses bad paging %o with a 400 naming the field, and changes nothing', async (query, field) => {
    const me = players[0]!.id;
    const before = await board(me);
    for (const path of ['/leaderboard', '/get-ref-users']) {
      const r = await h.call('GET', path, me, { query });
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({ error: 'Bad Request', field });
    }
    expect(await board(me)).toEqual(before);
  });

  it('the maintained view agrees with a rebuild from scratch on the same data', async () => {
    const maintained = await Promise.all(players.map(async (p) => (await board(p.id)).items[0]!.rank));
    await rebuildRanks(h.db, h.clock.now());
    const r = await h.db.query<{ user_id: number }>('SELECT user_id FROM rank_entries ORDER BY total_money DESC, neg_id DESC');
    expect(r.rows.map((x) => String(x.user_id))).toEqual(expectedOrder());
    await tick(h.clock.now());
    expect(await Promise.all(players.map(async (p) => (await board(p.id)).items[0]!.rank))).toEqual(maintained);
  });
});

describe('leaderboard when Redis is unreachable', () => {
  it('answers from the PostgreSQL view, and the process lives on', async () => {
    const base = await openHarness('pglite');
    const logs: string[] = [];
    // Nothing listens on port 9: every Redis call fails fast.
    const redis = openRedis('redis://127.0.0.1:9', { prefix: 'money-test:down:', connectTimeoutMs: 200, log: (m) => logs.push(m) });
    const h = await harnessOn(base.db, base.config, base.clock, undefined, false, redis);
    const id = h.newUserId();
    await h.call('GET', '', id);
    await setBalances(h.db, id, { totalMoney: '10' });
    await ranksJob(h.db, redis)(h.clock.now());
    const r = await h.call('GET', '/leaderboard', id);
    expect(r.statusCode).toBe(200);
    expect(r.json<Board>().items[0]).toMatchObject({ id: String(id), rank: 1, reward: '10' });
    await redis.close();
    await h.close();
    await base.close();
  });
});
