import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserStatus } from '../../engine/api-types.ts';
import { economy } from '../../engine/economy.ts';
import type { Db } from '../../server/db/db.ts';
import { applyGroupCached, applyGroupUnlocked, RowCache } from '../../server/domain/click-batcher.ts';
import { ledgerMatchesBalances, setBalances } from './db-helpers.ts';
import { backends, openHarness, type Harness } from './harness.ts';

// The unlocked group path: a plain read, then one compare-and-swap statement. `now` runs between
// the two, which lets a test write the row "concurrently", as another route would.
describe.each(backends)('click groups without row locks (%s)', (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness(backend);
  });
  afterAll(async () => {
    await h?.close();
  });

  const player = async () => {
    const id = h.newUserId();
    await h.call('GET', '', id);
    return id;
  };
  const stored = async (id: number) =>
    (await h.db.query<{ total_click: number; total_earn: string; total_money: string; energy_level: number }>(
      'SELECT total_click, total_earn::text, total_money::text, energy_level FROM users WHERE id = $1',
      [id],
    )).rows[0]!;

  it('applies a group of several players in one swap, answering in request order', async () => {
    const [a, b] = [await player(), await player()];
    const group = [
      { userId: a, click: 5, batchId: 'g1' },
      { userId: b, click: 7, batchId: 'g2' },
      { userId: a, click: 3, batchId: 'g3' },
      { userId: a, click: 9, batchId: 'g1' },
    ];
    const answers = await applyGroupUnlocked(h.db, group, () => h.clock.now());
    expect(answers.map((x) => [x.accepted, x.replay])).toEqual([[5, false], [7, false], [3, false], [5, true]]);
    expect(answers[2]!.row.total_click).toBe(8);
    expect((await stored(a)).total_click).toBe(8);
    expect((await stored(b)).total_click).toBe(7);
    const batches = await h.db.query<{ n: string }>('SELECT count(*)::text AS n FROM click_batches WHERE user_id = ANY($1::bigint[])', [[a, b]]);
    expect(batches.rows[0]!.n).toBe('3');
    expect(await ledgerMatchesBalances(h.db, [a, b])).toBe(true);
  });

  it('redoes, locked, a player whose row another route changed after the read; the other write is kept', async () => {
    const [moved, still] = [await player(), await player()];
    await setBalances(h.db, moved, { totalEarn: '1000' });
    // The database as the batcher sees it, except that a purchase-like write on `moved` (balance
    // and a level) commits just before the swap statement is sent.
    let raced = false;
    const db: Db = {
      ...h.db,
      query: async (sql, params) => {
        if (!raced && sql.includes('o_earn')) {
          raced = true;
          await h.db.transaction(async (tx) => {
            await tx.query(`INSERT INTO ledger (user_id, currency, amount, kind, created_at_ms) VALUES ($1, 'DOLLAR', -100, 'test', 0)`, [moved]);
            await tx.query('UPDATE users SET total_earn = total_earn - 100, energy_level = energy_level + 1 WHERE id = $1', [moved]);
          });
        }
        return h.db.query(sql, params);
      },
    };
    const group = [
      { userId: moved, click: 4, batchId: 'm1' },
      { userId: still, click: 6, batchId: 's1' },
    ];
    const answers = await applyGroupUnlocked(db, group, () => h.clock.now());
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
    // Replays after the redo return the first answers and credit nothing.
    const again = await applyGroupUnlocked(h.db, group, () => h.clock.now());
    expect(again.map((x) => [x.accepted, x.replay])).toEqual([[4, true], [6, true]]);
    expect((await stored(moved)).total_click).toBe(4);
    expect((await stored(still)).total_click).toBe(6);
  });

  it('with a cached row: one swap when nothing moved; a stale row or a stored batchId falls back to the read path', async () => {
    const [a, b] = [await player(), await player()];
    const cache = new RowCache(10);
    const now = () => h.clock.now();
    // First group: nothing cached, so the read path runs and fills the cache.
    const first = await applyGroupCached(h.db, [{ userId: a, click: 2, batchId: 'c1' }, { userId: b, click: 3, batchId: 'c2' }], now, cache);
    expect(first.map((x) => x.accepted)).toEqual([2, 3]);
    expect(cache.get(a)?.total_click).toBe(2);
    // Another route moves a's row (balance and a level) behind the cache's back.
    await setBalances(h.db, a, { totalEarn: '500' });
    await h.db.query('UPDATE users SET energy_level = energy_level + 1 WHERE id = $1', [a]);
    h.clock.advance(1_000);
    const second = await applyGroupCached(h.db, [{ userId: a, click: 4, batchId: 'c3' }, { userId: b, click: 5, batchId: 'c4' }], now, cache);
    expect(second.map((x) => [x.accepted, x.replay])).toEqual([[4, false], [5, false]]);
    expect(second[0]!.row.total_earn).toBe('504');
    expect(second[0]!.row.energy_level).toBe(economy.startingEnergyLevel + 1);
    const sa = await stored(a);
    expect([sa.total_click, sa.total_earn, sa.energy_level]).toEqual([6, '504', economy.startingEnergyLevel + 1]);
    expect((await stored(b)).total_click).toBe(8);
    // A batchId already stored, with a cached row that is current: answered as the first answer, nothing credited.
    h.clock.advance(1_000);
    const replay = await applyGroupCached(h.db, [{ userId: b, click: 9, batchId: 'c2' }], now, cache);
    expect(replay.map((x) => [x.accepted, x.replay])).toEqual([[3, true]]);
    expect((await stored(b)).total_click).toBe(8);
    expect(await ledgerMatchesBalances(h.db, [a, b])).toBe(true);
  });

  it('answers over HTTP with the status after the swap', async () => {
    const id = await player();
    const r = await h.call('POST', '/click', id, { body: { click: 10, batchId: 'http1', seq: 1 } });
    expect(r.statusCode).toBe(200);
    const body = r.json<{ accepted: number; status: UserStatus }>();
    expect(body.accepted).toBe(10);
    expect(body.status.totalClick).toBe(10);
    expect(body.status.totalEarn).toBe('10');
  });
});
