/**
 * The maintained ranked view (server/leaderboard/rank-view.ts) and its Redis mirror
 * (server/leaderboard/redis-ranks.ts), at small N with blocks of 4 entries (split above 8, merge
 * below 1), so that every apply reshapes blocks: after every step the view must equal the order of
 * users by MONEY (ties by id), its blocks must partition the keys with exact counts, every own rank
 * must agree with its page, a rebuild from scratch must give the same ranks, and an apply stopped
 * between any two of its steps must leave the view as it was.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaderboardFromView } from '../../server/leaderboard/leaderboard.ts';
import { applyPendingRanks, applyRankChanges, rankLockSql, rebuildRanks, type ApplyStep, type RankApply } from '../../server/leaderboard/rank-view.ts';
import { leaderboardFromRedis, memberOf, ranksKey, ranksVersionKey, syncRedisRanks } from '../../server/leaderboard/redis-ranks.ts';
import { ranksJob } from '../../server/leaderboard/ranks-job.ts';
import { openRedis, type RedisHandle } from '../../server/core/redis.ts';
import { setBalances } from './db-helpers.ts';
import { backends, openHarness, type Harness } from './harness.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const variants = backends.flatMap((b) => [{ backend: b, redis: false }, ...(redisUrl ? [{ backend: b, redis: true }] : [])]);
const blockSize = 4;

describe.each(variants)('ranked view ($backend, redis $redis)', ({ backend, redis: withRedis }) => {
  let h: Harness;
  let redis: RedisHandle | undefined;
  let tick: (nowMs: number) => Promise<unknown>;
  const players: number[] = [];
  const applies: RankApply[] = [];

  beforeAll(async () => {
    h = await openHarness(backend);
    if (withRedis) {
      redis = openRedis(redisUrl!, { prefix: `money-test:${randomBytes(6).toString('hex')}:` });
      expect(await redis.waitReady(5_000)).toBe(true);
    }
    await rebuildRanks(h.db, h.clock.now(), blockSize);
    const job = ranksJob(h.db, redis);
    tick = async (nowMs) => {
      const t = await job(nowMs);
      if (t?.applied) applies.push(t.applied);
      return t;
    };
  });
  afterAll(async () => {
    if (redis !== undefined) {
      await redis.client.del(ranksKey(redis), ranksVersionKey(redis));
      await redis.close();
    }
    await h?.close();
  });

  const setMoney = (id: number, money: string | number) => setBalances(h.db, id, { totalMoney: String(money) });

  /** Users by MONEY, ties by ascending id: what the view must hold. */
  const expectedOrder = async () =>
    (await h.db.query<{ id: number; m: string }>('SELECT id, total_money AS m FROM users ORDER BY total_money DESC, id ASC')).rows.map((r) => ({ id: Number(r.id), m: r.m }));

  /** The view's blocks partition the keys, top to bottom, with exact counts and `above`. */
  const expectBlocksSound = async () => {
    const blocks = (
      await h.db.query<{ lo_money: string; lo_neg: number; hi_money: string; hi_neg: number; n: number; above: number; real: number }>(
        `SELECT b.*, (SELECT count(*) FROM rank_entries e WHERE (e.total_money, e.neg_id) >= (b.lo_money, b.lo_neg) AND (e.total_money, e.neg_id) < (b.hi_money, b.hi_neg))::int AS real
         FROM rank_blocks b ORDER BY b.lo_money DESC, b.lo_neg DESC`,
      )
    ).rows;
    expect(blocks[0]!.hi_money).toBe('Infinity');
    expect(blocks.at(-1)!.lo_money).toBe('-Infinity');
    let above = 0;
    for (let i = 0; i < blocks.length; i++) {
      const b = blocks[i]!;
      if (i > 0) expect([b.hi_money, Number(b.hi_neg)]).toEqual([blocks[i - 1]!.lo_money, Number(blocks[i - 1]!.lo_neg)]);
      expect(Number(b.n)).toBe(b.real);
      expect(Number(b.above)).toBe(above);
      expect(Number(b.n)).toBeLessThanOrEqual(2 * blockSize);
      above += Number(b.n);
    }
    const meta = (await h.db.query<{ total: number }>('SELECT total FROM rank_meta')).rows[0]!;
    const entries = (await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM rank_entries')).rows[0]!.n;
    expect(Number(meta.total)).toBe(entries);
    expect(above).toBe(entries);
  };

  /** Every player's own rank from the view is their place in the expected order, and agrees with its page. */
  const expectViewMatchesUsers = async () => {
    const order = await expectedOrder();
    const pages = Math.ceil(order.length / 10);
    const listed = [];
    for (let p = 1; p <= pages; p++) {
      const page = await leaderboardFromView(h.db, order[0]!.id, p, 10);
      expect(page.total).toBe(order.length);
      listed.push(...page.items.slice(1));
    }
    expect(listed.map((e) => [Number(e.id), e.rank])).toEqual(order.map((o, i) => [o.id, i + 1]));
    for (let i = 0; i < order.length; i++) {
      const own = (await leaderboardFromView(h.db, order[i]!.id, 1, 10)).items[0]!;
      expect(own.rank).toBe(i + 1);
      expect(listed[i]).toMatchObject({ id: own.id, rank: own.rank, reward: own.reward });
    }
    await expectBlocksSound();
  };

  /** The sorted set holds the view's version and the same order and balances. */
  const expectRedisMatchesView = async () => {
    if (redis === undefined) return;
    const meta = (await h.db.query<{ version: number }>('SELECT version FROM rank_meta')).rows[0]!;
    expect(Number(await redis.client.get(ranksVersionKey(redis)))).toBe(Number(meta.version));
    const view = (await h.db.query<{ id: number; m: string }>('SELECT user_id AS id, total_money AS m FROM rank_entries ORDER BY total_money DESC, neg_id DESC')).rows;
    const set = await redis.client.zrevrange(ranksKey(redis), 0, -1, 'WITHSCORES');
    const fromSet = [];
    for (let i = 0; i < set.length; i += 2) fromSet.push([set[i]!, Number(set[i + 1])]);
    expect(fromSet).toEqual(view.map((v) => [memberOf(Number(v.id)), Math.round(Number(v.m) * 100)]));
    const first = Number(view[0]!.id);
    for (let p = 1; p <= Math.ceil(view.length / 10); p++) expect(await leaderboardFromRedis(h.db, redis, first, p, 10)).toEqual(await leaderboardFromView(h.db, first, p, 10));
  };

  it('ranks players as they join, ties by ascending id, and cuts the view into blocks', async () => {
    for (let i = 0; i < 30; i++) {
      const id = await h.newPlayer();
      players.push(id);
      // Balances repeat every 5 players: ties at every balance, at 0 too.
      if (i % 5 !== 0) await setMoney(id, (i % 5) * 100);
    }
    await tick(h.clock.now());
    await expectViewMatchesUsers();
    await expectRedisMatchesView();
    expect(applies.reduce((t, a) => t + a.splits, 0)).toBeGreaterThan(0);
    expect((await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM rank_dirty')).rows[0]!.n).toBe(0);
  });

  it('shows a player who joined since the last apply below the ranked players, then ranks them', async () => {
    const late = await h.newPlayer();
    const before = await leaderboardFromView(h.db, late, 1, 10);
    expect(before.items[0]).toMatchObject({ id: String(late), rank: 31 });
    expect(before.total).toBe(30);
    await tick(h.clock.now());
    players.push(late);
    expect((await leaderboardFromView(h.db, late, 1, 10)).items[0]).toMatchObject({ id: String(late), rank: 31 });
    await expectViewMatchesUsers();
  });

  it('moves a player up and down on the next tick, its own rank on its page', async () => {
    const climber = players[25]!;
    await setMoney(climber, 10_000);
    await tick(h.clock.now());
    const top = await leaderboardFromView(h.db, climber, 1, 10);
    expect(top.items[0]).toMatchObject({ id: String(climber), rank: 1, reward: '10000' });
    expect(top.items[1]).toMatchObject({ id: String(climber), rank: 1 });
    await setMoney(climber, 0);
    await tick(h.clock.now());
    await expectViewMatchesUsers();
    await expectRedisMatchesView();
  });

  it('keeps its blocks sound through many moves (splits and merges), and agrees with a rebuild from scratch', async () => {
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
    for (let round = 0; round < 8; round++) {
      for (let k = 0; k < 6; k++) await setMoney(players[next() % players.length]!, (next() % 8) * 50);
      // A crowd moves together, emptying the blocks they leave (merges) and filling the ones they join (splits).
      if (round === 3) for (const id of players.slice(0, 12)) await setMoney(id, 99_999);
      if (round === 5) for (const id of players.slice(0, 12)) await setMoney(id, 0);
      await tick(h.clock.now());
      await expectViewMatchesUsers();
    }
    expect(applies.reduce((t, a) => t + a.merges, 0)).toBeGreaterThan(0);
    await expectRedisMatchesView();
    const maintained = (await h.db.query<{ id: number }>('SELECT user_id AS id FROM rank_entries ORDER BY total_money DESC, neg_id DESC')).rows.map((r) => Number(r.id));
    const ownRanks = await Promise.all(players.map(async (id) => (await leaderboardFromView(h.db, id, 1, 10)).items[0]!.rank));
    await rebuildRanks(h.db, h.clock.now(), blockSize);
    const rebuilt = (await h.db.query<{ id: number }>('SELECT user_id AS id FROM rank_entries ORDER BY total_money DESC, neg_id DESC')).rows.map((r) => Number(r.id));
    expect(rebuilt).toEqual(maintained);
    expect(await Promise.all(players.map(async (id) => (await leaderboardFromView(h.db, id, 1, 10)).items[0]!.rank))).toEqual(ownRanks);
    await expectBlocksSound();
    // The rebuild is a new version: the mirror follows it.
    await tick(h.clock.now());
    await expectRedisMatchesView();
  });

  const viewState = async () => ({
    entries: (await h.db.query('SELECT user_id, total_money, version FROM rank_entries ORDER BY user_id')).rows,
    blocks: (await h.db.query('SELECT * FROM rank_blocks ORDER BY lo_money, lo_neg')).rows,
    meta: (await h.db.query('SELECT version, total FROM rank_meta')).rows,
    marks: (await h.db.query('SELECT user_id FROM rank_dirty ORDER BY user_id')).rows,
  });

  it.each<ApplyStep>(['marks-taken', 'blocks-counted', 'entries-written', 'blocks-reshaped'])(
    'an apply stopped after "%s" leaves the view and its marks as they were; the next apply catches up',
    async (stop) => {
      // Enough movement to split and merge: a crowd to the top, a new player, one to 0.
      for (const id of players.slice(12, 24)) await setMoney(id, 77_777);
      players.push(await h.newPlayer());
      await setMoney(players[3]!, 0);
      const before = await viewState();
      expect(before.marks.length).toBeGreaterThan(0);
      await expect(
        applyRankChanges(h.db, h.clock.now(), {
          afterStep: (s) => {
            if (s === stop) throw new Error(`stopped after ${s}`);
          },
        }),
      ).rejects.toThrow(`stopped after ${stop}`);
      expect(await viewState()).toEqual(before);
      await tick(h.clock.now());
      await expectViewMatchesUsers();
      await expectRedisMatchesView();
      for (const id of players.slice(12, 24)) await setMoney(id, 0);
      await tick(h.clock.now());
    },
  );

  it('applied in slices, leaves a sound view after every slice, and the whole once the marks run out', async () => {
    for (const [i, id] of players.slice(0, 9).entries()) await setMoney(id, 50_000 + i);
    let slices = 0;
    for (;;) {
      // Three marks a transaction: a process stopped after any slice leaves the view as the slice left it.
      const a = await applyRankChanges(h.db, h.clock.now(), { maxMarks: 3 });
      if (a === null || a.marks === 0) break;
      slices += 1;
      await expectBlocksSound();
      const order = (await h.db.query<{ id: number }>('SELECT user_id AS id FROM rank_entries ORDER BY total_money DESC, neg_id DESC')).rows.map((r) => Number(r.id));
      for (const id of [players[0]!, players[8]!]) {
        const own = (await leaderboardFromView(h.db, id, 1, 10)).items[0]!;
        expect(own.rank).toBe(order.indexOf(id) + 1);
        expect((await leaderboardFromView(h.db, id, Math.ceil(own.rank / 10), 10)).items.slice(1).find((e) => e.id === own.id)).toMatchObject({ rank: own.rank, reward: own.reward });
      }
    }
    expect(slices).toBeGreaterThanOrEqual(3);
    await expectViewMatchesUsers();
    await tick(h.clock.now());
    await expectRedisMatchesView();
  });

  it('takes a mark whose balance the view already has without changing the view', async () => {
    await h.db.query('INSERT INTO rank_dirty (user_id) VALUES ($1), ($1)', [players[0]]);
    const before = await viewState();
    const a = await applyRankChanges(h.db, h.clock.now());
    expect(a).toMatchObject({ marks: 2, moved: 0, version: Number((before.meta[0] as { version: number }).version) });
    expect(await viewState()).toEqual({ ...before, marks: [] });
  });

  it('leaves no mark for a balance change that was rolled back', async () => {
    await expect(
      h.db.transaction(async (tx) => {
        await tx.query('UPDATE users SET total_money = total_money + 5 WHERE id = $1', [players[1]]);
        throw new Error('crash');
      }),
    ).rejects.toThrow('crash');
    expect((await h.db.query('SELECT user_id FROM rank_dirty')).rows).toEqual([]);
    expect(await applyPendingRanks(h.db, h.clock.now())).toMatchObject({ marks: 0, moved: 0 });
  });

  it.skipIf(backend !== 'postgres')('skips the apply while another process holds it, and applies after', async () => {
    await setMoney(players[2]!, 4_242);
    await h.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(${rankLockSql})`);
      expect(await applyRankChanges(h.db, h.clock.now())).toBeNull();
    });
    expect(await applyRankChanges(h.db, h.clock.now())).toMatchObject({ marks: 1, moved: 1 });
    await expectViewMatchesUsers();
  });

  it.skipIf(!withRedis)('catches the sorted set up with only the changed entries, and copies it whole when it is gone', async () => {
    const r = redis!;
    await tick(h.clock.now());
    // The view moves while the mirror is not run (a crash between the view's commit and the mirror).
    for (const id of players.slice(5, 8)) await setMoney(id, 31_337);
    await applyPendingRanks(h.db, h.clock.now());
    expect(await syncRedisRanks(h.db, r)).toMatchObject({ kind: 'catch-up', members: 3 });
    await expectRedisMatchesView();
    expect(await syncRedisRanks(h.db, r)).toMatchObject({ kind: 'current' });
    // A set that holds an older version than it has gets the changes since then again: harmless.
    const v = Number(await r.client.get(ranksVersionKey(r)));
    await r.client.set(ranksVersionKey(r), String(v - 1));
    expect((await syncRedisRanks(h.db, r)).kind).toBe('catch-up');
    await expectRedisMatchesView();
    // The set evicted while its version stayed: a catch-up cannot restore it, a whole copy does.
    await setMoney(players[9]!, 27_182);
    await applyPendingRanks(h.db, h.clock.now());
    await r.client.del(ranksKey(r));
    expect(await syncRedisRanks(h.db, r)).toMatchObject({ kind: 'publish' });
    await expectRedisMatchesView();
    // A flushed Redis: the whole view is copied.
    await r.client.del(ranksKey(r), ranksVersionKey(r));
    expect(await leaderboardFromRedis(h.db, r, players[0]!, 1, 10)).toBeNull();
    expect(await syncRedisRanks(h.db, r)).toMatchObject({ kind: 'publish' });
    await expectRedisMatchesView();
  });
});
