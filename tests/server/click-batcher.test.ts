import { describe, expect, it, vi } from 'vitest';
import type { UserStatus } from '../../engine/wire/api-types.ts';
import { economy } from '../../engine/rules/economy.ts';
import { ClickBatcher } from '../../server/clicks/click-batcher.ts';
import { applyClicks, RowCache } from '../../server/clicks/click-group.ts';
import type { Click } from '../../server/clicks/click-sql.ts';
import { isGroupWrite, ledgerMatchesBalances, setBalances, spyDb } from './db-helpers.ts';
import { backends, openForSuite, openHarness } from './harness.ts';

describe.each(backends)('click groups (%s)', (backend) => {
  const h = openForSuite(() => openHarness(backend));

  const stored = async (id: number) =>
    (await h.db.query<{ total_click: number; total_earn: string; total_money: string; energy_level: number }>(
      'SELECT total_click, total_earn::text, total_money::text, energy_level FROM users WHERE id = $1',
      [id],
    )).rows[0]!;
  const now = () => h.clock.now();

  it('applies a group of several players in one write, answering in request order', async () => {
    const [a, b] = [await h.newPlayer(), await h.newPlayer()];
    const group: Click[] = [
      { userId: a, click: 5, batchId: 'g1' },
      { userId: b, click: 7, batchId: 'g2' },
      { userId: a, click: 3, batchId: 'g3' },
      { userId: a, click: 9, batchId: 'g1' },
    ];
    const { spy, seen } = spyDb(h.db);
    const answers = await applyClicks(spy, group, now, new RowCache(10));
    expect(answers.map((x) => [x.accepted, x.replay])).toEqual([[5, false], [7, false], [3, false], [5, true]]);
    expect(seen.filter(isGroupWrite)).toHaveLength(1);
    expect(answers[2]!.row.total_click).toBe(8);
    expect((await stored(a)).total_click).toBe(8);
    expect((await stored(b)).total_click).toBe(7);
    const batches = await h.db.query<{ n: string }>('SELECT count(*)::text AS n FROM click_batches WHERE user_id = ANY($1::bigint[])', [[a, b]]);
    expect(batches.rows[0]!.n).toBe('3');
    const ledger = await h.db.query<{ n: string }>("SELECT count(*)::text AS n FROM ledger WHERE kind = 'click' AND user_id = ANY($1::bigint[])", [[a, b]]);
    expect(ledger.rows[0]!.n).toBe('3');
    expect(await ledgerMatchesBalances(h.db, [a, b])).toBe(true);
  });

  it('redoes, locked, a player whose row another route changed after the read; the other write is kept', async () => {
    const [moved, still] = [await h.newPlayer(), await h.newPlayer()];
    await setBalances(h.db, moved, { totalEarn: '1000' });
    // A purchase-like write on `moved` (balance and a level) commits just before the group's write.
    let raced = false;
    const { spy } = spyDb(h.db, async (sql) => {
      if (raced || !isGroupWrite(sql)) return;
      raced = true;
      await h.db.transaction(async (tx) => {
        await tx.query(`INSERT INTO ledger (user_id, currency, amount, kind, created_at_ms) VALUES ($1, 'DOLLAR', -100, 'test', 0)`, [moved]);
        await tx.query('UPDATE users SET total_earn = total_earn - 100, energy_level = energy_level + 1 WHERE id = $1', [moved]);
      });
    });
    const group: Click[] = [
      { userId: moved, click: 4, batchId: 'm1' },
      { userId: still, click: 6, batchId: 's1' },
    ];
    const cache = new RowCache(10);
    const answers = await applyClicks(spy, group, now, cache);
    expect(raced).toBe(true);
    expect(answers.map((x) => [x.accepted, x.replay])).toEqual([[4, false], [6, false]]);
    const m = await stored(moved);
    expect(m.total_click).toBe(4);
    expect(m.energy_level).toBe(economy.startingEnergyLevel + 1);
    // 1000 − 100 by the other write, + 4 taps × $1 (finger level 1).
    expect(m.total_earn).toBe('904');
    expect(answers[0]!.row.total_click).toBe(4);
    expect(answers[0]!.row.energy_level).toBe(economy.startingEnergyLevel + 1);
    expect((await stored(still)).total_click).toBe(6);
    expect(await ledgerMatchesBalances(h.db, [moved, still])).toBe(true);
    // Replays (now from cached rows) return the first answers and credit nothing.
    const again = await applyClicks(h.db, group, now, cache);
    expect(again.map((x) => [x.accepted, x.replay])).toEqual([[4, true], [6, true]]);
    expect((await stored(moved)).total_click).toBe(4);
    expect((await stored(still)).total_click).toBe(6);
  });

  it('with a cached row: one statement when nothing moved; a stale row or a stored batchId falls back to the read', async () => {
    const [a, b] = [await h.newPlayer(), await h.newPlayer()];
    const cache = new RowCache(10);
    const first = await applyClicks(h.db, [{ userId: a, click: 2, batchId: 'c1' }, { userId: b, click: 3, batchId: 'c2' }], now, cache);
    expect(first.map((x) => x.accepted)).toEqual([2, 3]);
    expect(cache.get(a)?.total_click).toBe(2);
    // Both cached: the next group is one statement, no read.
    h.clock.advance(1_000);
    const { spy, seen } = spyDb(h.db);
    const fast = await applyClicks(spy, [{ userId: a, click: 1, batchId: 'c5' }, { userId: b, click: 1, batchId: 'c6' }], now, cache);
    expect(fast.map((x) => x.accepted)).toEqual([1, 1]);
    expect(seen).toHaveLength(1);
    expect(seen.filter(isGroupWrite)).toHaveLength(1);
    // The cache keeps one row a player, updated in place: an earlier answer still shows what its group wrote.
    expect([first[0]!.row.total_click, fast[0]!.row.total_click, cache.get(a)?.total_click]).toEqual([2, 3, 3]);
    expect(cache.get(a)).not.toBe(fast[0]!.row);
    // Another route moves a's row (MONEY balance, which the click rule does not read) behind the cache's back.
    await setBalances(h.db, a, { totalEarn: '500', totalMoney: '7' });
    await h.db.query('UPDATE users SET energy_level = energy_level + 1 WHERE id = $1', [a]);
    h.clock.advance(1_000);
    const second = await applyClicks(h.db, [{ userId: a, click: 4, batchId: 'c3' }, { userId: b, click: 5, batchId: 'c4' }], now, cache);
    expect(second.map((x) => [x.accepted, x.replay])).toEqual([[4, false], [5, false]]);
    expect([second[0]!.row.total_earn, second[0]!.row.total_money, second[0]!.row.energy_level]).toEqual(['504', '7', economy.startingEnergyLevel + 1]);
    const sa = await stored(a);
    expect([sa.total_click, sa.total_earn, sa.energy_level]).toEqual([7, '504', economy.startingEnergyLevel + 1]);
    expect((await stored(b)).total_click).toBe(9);
    // A batchId already stored, with a cached row that is current: answered as the first answer, nothing credited.
    h.clock.advance(1_000);
    const replay = await applyClicks(h.db, [{ userId: b, click: 9, batchId: 'c2' }], now, cache);
    expect(replay.map((x) => [x.accepted, x.replay])).toEqual([[3, true]]);
    expect((await stored(b)).total_click).toBe(9);
    // The stored batchId fails the group's statement: a new batch beside it in the group is still
    // applied, once, and the replay credits nothing.
    h.clock.advance(1_000);
    const mixed = await applyClicks(h.db, [{ userId: a, click: 2, batchId: 'c7' }, { userId: b, click: 9, batchId: 'c4' }], now, cache);
    expect(mixed.map((x) => [x.accepted, x.replay])).toEqual([[2, false], [5, true]]);
    expect([(await stored(a)).total_click, (await stored(b)).total_click]).toEqual([9, 9]);
    expect(await ledgerMatchesBalances(h.db, [a, b])).toBe(true);
  });

  it('releases the invite bonus once, through the locked path and the same write statement', async () => {
    const [referrer, friend, other] = [await h.newPlayer(), await h.newPlayer(), await h.newPlayer()];
    const refcode = (await h.db.query<{ refcode: string }>('SELECT refcode FROM users WHERE id = $1', [referrer])).rows[0]!.refcode;
    expect((await h.call('POST', '/referral', friend, { query: { refcode } })).statusCode).toBe(200);
    // The friend already joined the channel (docs/rules.md §9), so crossing $100 releases the bonus.
    await h.db.query('UPDATE referrals SET is_member = true WHERE friend_id = $1', [friend]);
    await setBalances(h.db, friend, { totalEarn: '95' });
    const { spy, seen } = spyDb(h.db);
    const cache = new RowCache(10);
    // The friend's 10 taps cross $100 (locked path); the other player's go through the read path.
    const answers = await applyClicks(spy, [{ userId: friend, click: 10, batchId: 'x1' }, { userId: other, click: 2, batchId: 'x2' }], now, cache);
    expect(answers.map((x) => x.accepted)).toEqual([10, 2]);
    const bonus = economy.inviteBonusMoney;
    expect(answers[0]!.row.total_money).toBe(String(bonus));
    expect((await stored(friend)).total_money).toBe(String(bonus));
    expect((await stored(referrer)).total_money).toBe(String(bonus));
    // Further clicks (cached path) release nothing more.
    h.clock.advance(1_000);
    await applyClicks(spy, [{ userId: friend, click: 5, batchId: 'x3' }], now, cache);
    expect((await stored(friend)).total_money).toBe(String(bonus));
    expect((await stored(referrer)).total_money).toBe(String(bonus));
    // Every write of every path was the one statement.
    expect(new Set(seen.filter(isGroupWrite)).size).toBe(1);
    expect(seen.filter((s) => /UPDATE users SET total_earn/.test(s) && !isGroupWrite(s))).toEqual([]);
    expect(await ledgerMatchesBalances(h.db, [referrer, friend, other])).toBe(true);
  });

  it('gathers the batches that arrive together into one group', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, () => h.newPlayer()));
    const { spy, seen } = spyDb(h.db);
    const batcher = new ClickBatcher(spy, h.clock);
    const answers = await Promise.all(ids.map((id, i) => batcher.submit(id, 2, `gather${i}`)));
    expect(answers.map((a) => a.accepted)).toEqual(ids.map(() => 2));
    expect(seen.filter(isGroupWrite)).toHaveLength(1);
  });

  it('starts a group beside the one in flight only once overlapMin batches wait', async () => {
    const ids = await Promise.all(Array.from({ length: 4 }, () => h.newPlayer()));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    // The first group's write waits at the gate; every later statement runs at once.
    const { spy, seen } = spyDb(h.db, async (sql) => {
      if (isGroupWrite(sql) && !held) {
        held = true;
        await gate;
      }
    });
    const batcher = new ClickBatcher(spy, h.clock, { concurrency: 2, overlapMin: 3 });
    const first = batcher.submit(ids[0]!, 1, 'ov0');
    await vi.waitFor(() => expect(held).toBe(true));
    const statements = seen.length;
    const waiting = [1, 2].map((k) => batcher.submit(ids[k]!, 1, `ov${k}`));
    // The batcher decides on the event loop's next turn (setImmediate): two turns later it has.
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
    // Two wait, fewer than overlapMin: no second group has read or written anything.
    expect(seen.length).toBe(statements);
    waiting.push(batcher.submit(ids[3]!, 1, 'ov3'));
    // The third makes overlapMin: their group is written while the first is still held.
    await vi.waitFor(() => expect(seen.filter(isGroupWrite)).toHaveLength(2));
    release();
    const answers = await Promise.all([first, ...waiting]);
    expect(answers.map((a) => a.accepted)).toEqual([1, 1, 1, 1]);
    expect(seen.filter(isGroupWrite)).toHaveLength(2);
  });

  it('answers over HTTP with the status after the write', async () => {
    const id = await h.newPlayer();
    const r = await h.call('POST', '/click', id, { body: { click: 10, batchId: 'http1', seq: 1 } });
    expect(r.statusCode).toBe(200);
    const body = r.json<{ accepted: number; status: UserStatus }>();
    expect(body.accepted).toBe(10);
    expect(body.status.totalClick).toBe(10);
    expect(body.status.totalEarn).toBe('10');
  });
});
