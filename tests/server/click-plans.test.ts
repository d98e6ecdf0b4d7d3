/**
 * The click group plans each batch once (docs/storage.md, "Click groups"): the tap rule runs once
 * per batch on every path (cached row, plain read, crossing $100, a re-run after a deadlock), and
 * a second time only for a batch whose row is proven stale. The rule is passed in counting its
 * calls; each batch of a test asks a different number of taps, so a call names its batch.
 */
import { describe, expect, it } from 'vitest';
import { applyTaps } from '../../engine/rules/clicks.ts';
import { economy } from '../../engine/rules/economy.ts';
import { applyClicks, GroupFailure, RowCache } from '../../server/clicks/click-group.ts';
import type { TapRule } from '../../server/clicks/click-plan.ts';
import { isGroupWrite, ledgerMatchesBalances, setBalances, spyDb } from './db-helpers.ts';
import { backends, openForSuite, openHarness } from './harness.ts';

/** applyTaps, counting its calls by the taps asked. */
const countingRule = () => {
  const calls = new Map<number, number>();
  const rule: TapRule = (state, requested, nowMs, rules) => {
    calls.set(requested, (calls.get(requested) ?? 0) + 1);
    return applyTaps(state, requested, nowMs, rules);
  };
  return { rule, calls: () => Object.fromEntries(calls) };
};

/** An error as PostgreSQL raises it for the losing side of a deadlock. */
const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });

describe.each(backends)('one plan per batch (%s)', (backend) => {
  const h = openForSuite(() => openHarness(backend));

  const totalClick = async (id: number) => (await h.db.query<{ total_click: number }>('SELECT total_click FROM users WHERE id = $1', [id])).rows[0]!.total_click;
  const now = () => h.clock.now();
  /** Players whose rows `cache` holds, as a first group left them. */
  const cachedPlayers = async (n: number, cache: RowCache) => {
    const ids = await Promise.all(Array.from({ length: n }, () => h.newPlayer()));
    await applyClicks(h.db, ids.map((userId, k) => ({ userId, click: 1, batchId: `warm${userId}-${k}` })), now, cache);
    h.clock.advance(1_000);
    return ids;
  };

  it('answers the part of a group that committed when another part failed: each batch its own outcome', async () => {
    const cache = new RowCache(10);
    const [cached] = await cachedPlayers(1, cache);
    const uncached = await h.newPlayer();
    const before = [await totalClick(cached!), await totalClick(uncached)];
    // The uncached player's read fails as a dropped connection does; the cached player's write goes through.
    const dropped = Object.assign(new Error('Connection terminated unexpectedly'), {});
    const { spy } = spyDb(h.db, async (sql) => {
      if (sql.includes('json_object_agg')) throw dropped;
    });
    const failed = await applyClicks(spy, [{ userId: cached!, click: 5, batchId: 'part-ok' }, { userId: uncached, click: 6, batchId: 'part-failed' }], now, cache).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(GroupFailure);
    const { answers, failures } = failed as GroupFailure;
    expect(answers[0]?.accepted).toBe(5);
    expect(answers[1]).toBeUndefined();
    expect(failures.get(1)).toBe(dropped);
    expect([await totalClick(cached!), await totalClick(uncached)]).toEqual([before[0]! + 5, before[1]]);
    expect(await ledgerMatchesBalances(h.db, [cached!, uncached])).toBe(true);
  });

  it('plans each batch once on cached rows: one statement, no read', async () => {
    const cache = new RowCache(10);
    const [a, b] = await cachedPlayers(2, cache);
    const { rule, calls } = countingRule();
    const { spy, seen } = spyDb(h.db);
    const answers = await applyClicks(spy, [{ userId: a!, click: 3, batchId: 'f1' }, { userId: b!, click: 4, batchId: 'f2' }, { userId: a!, click: 5, batchId: 'f3' }], now, cache, rule);
    expect(answers.map((x) => x.accepted)).toEqual([3, 4, 5]);
    expect(calls()).toEqual({ 3: 1, 4: 1, 5: 1 });
    expect(seen.length).toBe(1);
  });

  it('plans each batch of uncached players once, after one read', async () => {
    const [a, b] = [await h.newPlayer(), await h.newPlayer()];
    const { rule, calls } = countingRule();
    const { spy, seen } = spyDb(h.db);
    const answers = await applyClicks(spy, [{ userId: a, click: 6, batchId: 'u1' }, { userId: b, click: 7, batchId: 'u2' }], now, new RowCache(10), rule);
    expect(answers.map((x) => x.accepted)).toEqual([6, 7]);
    expect(calls()).toEqual({ 6: 1, 7: 1 });
    expect(seen.length).toBe(2);
    expect(seen.filter(isGroupWrite)).toHaveLength(1);
  });

  const referredPlayerAt95 = async () => {
    const [referrer, friend] = [await h.newPlayer(), await h.newPlayer()];
    const refcode = (await h.db.query<{ refcode: string }>('SELECT refcode FROM users WHERE id = $1', [referrer])).rows[0]!.refcode;
    expect((await h.call('POST', '/referral', friend, { query: { refcode } })).statusCode).toBe(200);
    await h.db.query('UPDATE referrals SET is_member = true WHERE friend_id = $1', [friend]);
    await setBalances(h.db, friend, { totalEarn: '95' });
    return { referrer, friend };
  };

  it('plans a batch crossing $100 once: the locked path writes the plan it is given', async () => {
    const { referrer, friend } = await referredPlayerAt95();
    const other = await h.newPlayer();
    const { rule, calls } = countingRule();
    const answers = await applyClicks(h.db, [{ userId: friend, click: 10, batchId: 'x1' }, { userId: other, click: 2, batchId: 'x2' }], now, new RowCache(10), rule);
    expect(answers.map((x) => x.accepted)).toEqual([10, 2]);
    expect(calls()).toEqual({ 10: 1, 2: 1 });
    expect(answers[0]!.row.total_money).toBe(String(economy.inviteBonusMoney));
    expect(await ledgerMatchesBalances(h.db, [referrer, friend, other])).toBe(true);
  });

  it('plans again only the batch whose row another route moved before the write', async () => {
    const cache = new RowCache(10);
    const [moved, still] = await cachedPlayers(2, cache);
    let raced = false;
    const { spy } = spyDb(h.db, async (sql) => {
      if (raced || !isGroupWrite(sql)) return;
      raced = true;
      await h.db.query('UPDATE users SET energy_level = energy_level + 1 WHERE id = $1', [moved]);
    });
    const { rule, calls } = countingRule();
    const answers = await applyClicks(spy, [{ userId: moved!, click: 8, batchId: 'v1' }, { userId: still!, click: 9, batchId: 'v2' }], now, cache, rule);
    expect(raced).toBe(true);
    expect(answers.map((x) => [x.accepted, x.replay])).toEqual([[8, false], [9, false]]);
    expect(answers[0]!.row.energy_level).toBe(economy.startingEnergyLevel + 1);
    expect(calls()).toEqual({ 8: 2, 9: 1 });
    expect([await totalClick(moved!), await totalClick(still!)]).toEqual([9, 10]);
  });

  it('answers a batchId already stored as a replay, without running the rule on it again', async () => {
    const cache = new RowCache(10);
    const [a, b] = await cachedPlayers(2, cache);
    await applyClicks(h.db, [{ userId: b!, click: 11, batchId: 'd-old' }], now, cache);
    h.clock.advance(1_000);
    const { rule, calls } = countingRule();
    // b's cached row is current, but its batchId is stored: the write fails on it, the locked read
    // finds it (b's plan is stale), and a's plan is written as it was.
    const answers = await applyClicks(h.db, [{ userId: a!, click: 12, batchId: 'd-new' }, { userId: b!, click: 13, batchId: 'd-old' }], now, cache, rule);
    expect(answers.map((x) => [x.accepted, x.replay])).toEqual([[12, false], [11, true]]);
    expect(calls()).toEqual({ 12: 1, 13: 1 });
    // Uncached, the read finds it: the rule never runs on a replay.
    const fresh = countingRule();
    const again = await applyClicks(h.db, [{ userId: b!, click: 14, batchId: 'd-old' }], now, new RowCache(10), fresh.rule);
    expect(again.map((x) => [x.accepted, x.replay])).toEqual([[11, true]]);
    expect(fresh.calls()).toEqual({});
    expect([await totalClick(a!), await totalClick(b!)]).toEqual([13, 12]);
  });

  it('runs the same write again after a deadlock, and the locked transaction again with the same plan', async () => {
    const cache = new RowCache(10);
    const [a] = await cachedPlayers(1, cache);
    let failed = 0;
    const failFirstWrite = async (sql: string) => {
      if (isGroupWrite(sql) && failed++ === 0) throw deadlock();
    };
    const plain = spyDb(h.db, failFirstWrite);
    const { rule, calls } = countingRule();
    const answers = await applyClicks(plain.spy, [{ userId: a!, click: 15, batchId: 'dl1' }], now, cache, rule);
    expect(answers.map((x) => x.accepted)).toEqual([15]);
    expect(calls()).toEqual({ 15: 1 });
    expect(plain.seen.filter(isGroupWrite)).toHaveLength(2);
    expect(await totalClick(a!)).toBe(16);
    // The crossing player's write is inside the locked transaction: the helper runs it again.
    const { referrer, friend } = await referredPlayerAt95();
    failed = 0;
    const locked = spyDb(h.db, failFirstWrite);
    const counted = countingRule();
    const crossed = await applyClicks(locked.spy, [{ userId: friend, click: 16, batchId: 'dl2' }], now, new RowCache(10), counted.rule);
    expect(crossed.map((x) => x.accepted)).toEqual([16]);
    expect(counted.calls()).toEqual({ 16: 1 });
    expect(locked.seen.filter(isGroupWrite)).toHaveLength(2);
    expect(crossed[0]!.row.total_money).toBe(String(economy.inviteBonusMoney));
    expect(await ledgerMatchesBalances(h.db, [a!, referrer, friend])).toBe(true);
  });

  it('checks the version of a cached player whose taps were all refused: one statement if current, planned again if not', async () => {
    const cache = new RowCache(10);
    const [a] = await cachedPlayers(1, cache);
    await h.db.query('UPDATE users SET energy = 0, energy_at_ms = $2 WHERE id = $1', [a, now()]);
    // Not cached as empty yet: read, refused, cached.
    cache.delete(a!);
    expect((await applyClicks(h.db, [{ userId: a!, click: 17, batchId: 'e1' }], now, cache)).map((x) => x.accepted)).toEqual([0]);
    // The cached row is current: the rule refuses on it, and the one statement stores the batchId.
    const current = countingRule();
    const { spy, seen } = spyDb(h.db);
    expect((await applyClicks(spy, [{ userId: a!, click: 18, batchId: 'e2' }], now, cache, current.rule)).map((x) => x.accepted)).toEqual([0]);
    expect(current.calls()).toEqual({ 18: 1 });
    expect(seen.length).toBe(1);
    // Another route refills the energy behind the cache: the check refuses the stale row, and the taps count.
    await h.db.query('UPDATE users SET energy = 500 WHERE id = $1', [a]);
    const stale = countingRule();
    const answers = await applyClicks(h.db, [{ userId: a!, click: 19, batchId: 'e3' }], now, cache, stale.rule);
    expect(answers.map((x) => [x.accepted, x.replay])).toEqual([[19, false]]);
    expect(stale.calls()).toEqual({ 19: 2 });
    const stored = await h.db.query<{ batch_id: string; accepted: number }>('SELECT batch_id, accepted FROM click_batches WHERE user_id = $1 ORDER BY batch_id', [a]);
    expect(stored.rows.filter((r) => r.batch_id.startsWith('e'))).toEqual([
      { batch_id: 'e1', accepted: 0 },
      { batch_id: 'e2', accepted: 0 },
      { batch_id: 'e3', accepted: 19 },
    ]);
    expect(await totalClick(a!)).toBe(20);
  });
});
