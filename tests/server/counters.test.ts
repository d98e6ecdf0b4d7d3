/**
 * The maintained counters (migration 0980, docs/storage.md "Maintained ranks and counters"): the
 * public stats (server/leaderboard/stats-cache.ts) and the console's active players and referral
 * funnel (server/console/console-aggregates.ts) change by deltas written in the transactions that
 * change what they count, and are folded in by their jobs. After every step they must equal a
 * count from scratch; a transaction that fails writes no delta; a fold that fails adds nothing and
 * the next adds everything once; a rebuild from scratch agrees with them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserStatus } from '../../engine/wire/api-types.ts';
import { money } from '../../engine/rules/money.ts';
import { foldConsoleCounters, rebuildConsoleCounters, refreshConsoleAggregates } from '../../server/console/console-aggregates.ts';
import { transaction } from '../../server/core/db/transaction.ts';
import { readStatsCache, rebuildStatsCache, refreshStatsCache } from '../../server/leaderboard/stats-cache.ts';
import { creditDollars, creditMoney } from '../../server/players/ledger.ts';
import { setBalances } from './db-helpers.ts';
import { backends, openHarness, type Harness } from './harness.ts';

const dayMs = 86_400_000;

describe.each(backends)('maintained counters (%s)', (backend) => {
  let h: Harness;
  const ids: number[] = [];
  beforeAll(async () => {
    h = await openHarness(backend);
  });
  afterAll(async () => {
    await h?.close();
  });

  /** totalClick, totalPaticipant and totalEarn counted from scratch. */
  const fromUsers = async () => {
    const r = (await h.db.query<{ n: number; c: string; e: string }>('SELECT count(*)::int AS n, COALESCE(sum(total_click), 0)::text AS c, COALESCE(sum(total_earn), 0)::text AS e FROM users')).rows[0]!;
    return { totalPaticipant: r.n, totalClick: Number(r.c), totalEarn: r.e };
  };
  const expectStats = async (s: { totalClick: number; totalPaticipant: number; totalEarn: string }) => {
    const want = await fromUsers();
    expect({ totalClick: s.totalClick, totalPaticipant: s.totalPaticipant }).toEqual({ totalClick: want.totalClick, totalPaticipant: want.totalPaticipant });
    expect(money(s.totalEarn).eq(want.totalEarn)).toBe(true);
  };
  const deltas = async (table: string) => (await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;
  const click = (id: number, taps: number, batchId: string) => h.call('POST', '/click', id, { body: { click: taps, batchId } });

  it('counts joins, click groups (a replayed batch once), purchases and credits as they happen', async () => {
    for (let i = 0; i < 4; i++) ids.push(await h.newPlayer());
    expect((await click(ids[0]!, 5, 'a1')).statusCode).toBe(200);
    expect((await click(ids[1]!, 7, 'b1')).statusCode).toBe(200);
    // A client's retry of the same batch is answered as a replay and counted once.
    expect((await click(ids[0]!, 5, 'a1')).statusCode).toBe(200);
    await Promise.all([click(ids[2]!, 3, 'c1'), click(ids[3]!, 4, 'd1'), click(ids[2]!, 2, 'c2')]);
    await transaction(h.db, (tx) => creditDollars(tx, { userId: ids[1]!, amount: '250.5', kind: 'passive', nowMs: h.clock.now() }));
    await transaction(h.db, (tx) => creditMoney(tx, { userId: ids[1]!, amount: '10', kind: 'task', nowMs: h.clock.now() }));
    // A purchase spends dollars (a negative DOLLAR ledger row).
    const bought = await h.call('POST', '/update-level', ids[1]!, { body: { levelKey: 1 } });
    expect(bought.statusCode).toBe(200);
    expect(money(bought.json<UserStatus>().totalEarn).lt('250.5')).toBe(true);
    // Read before any fold: the row plus the deltas is already exact.
    expect(await deltas('stats_deltas')).toBeGreaterThan(0);
    await expectStats((await readStatsCache(h.db))!);
    await expectStats(await refreshStatsCache(h.db, h.clock.now()));
    expect(await deltas('stats_deltas')).toBe(0);
    await expectStats((await readStatsCache(h.db))!);
  });

  it('writes no delta for a transaction that fails after changing balances (a crash mid-update)', async () => {
    const before = await refreshStatsCache(h.db, h.clock.now());
    await expect(
      transaction(h.db, async (tx) => {
        await creditDollars(tx, { userId: ids[0]!, amount: '99', kind: 'passive', nowMs: h.clock.now() });
        await tx.query(
          `INSERT INTO users (id, refcode, energy_at_ms, tap_clock_ms, last_claimed_ms, created_at_ms, total_click) VALUES ($1, 'zz9999', 0, 0, 0, 0, 12)`,
          [h.newUserId()],
        );
        throw new Error('crash');
      }),
    ).rejects.toThrow('crash');
    expect(await deltas('stats_deltas')).toBe(0);
    expect(await refreshStatsCache(h.db, h.clock.now())).toEqual(before);
    await expectStats(before);
  });

  it('adds nothing when a fold fails, and everything once on the next fold', async () => {
    await click(ids[3]!, 6, 'd2');
    await setBalances(h.db, ids[2]!, { totalEarn: '1234.56' });
    const pending = await deltas('stats_deltas');
    expect(pending).toBeGreaterThan(0);
    const row = async () => (await h.db.query('SELECT total_click, total_paticipant, total_earn FROM stats_cache')).rows;
    const before = await row();
    await expect(
      h.db.transaction(async (tx) => {
        await refreshStatsCache(tx, h.clock.now());
        throw new Error('crash');
      }),
    ).rejects.toThrow('crash');
    expect(await row()).toEqual(before);
    expect(await deltas('stats_deltas')).toBe(pending);
    await expectStats(await refreshStatsCache(h.db, h.clock.now()));
    await expectStats(await refreshStatsCache(h.db, h.clock.now()));
  });

  it('agrees with a rebuild from scratch, which also takes the pending deltas', async () => {
    await click(ids[0]!, 4, 'a2');
    const live = (await readStatsCache(h.db))!;
    const rebuilt = await rebuildStatsCache(h.db, h.clock.now());
    expect(rebuilt).toEqual({ totalClick: live.totalClick, totalPaticipant: live.totalPaticipant, totalEarn: live.totalEarn });
    expect(await deltas('stats_deltas')).toBe(0);
    expect(await refreshStatsCache(h.db, h.clock.now())).toEqual(rebuilt);
  });

  it('counts from scratch when the row is gone, instead of taking the deltas for the totals', async () => {
    await click(ids[1]!, 3, 'b2');
    await h.db.query('DELETE FROM stats_cache');
    await expectStats(await refreshStatsCache(h.db, h.clock.now()));
    expect(await deltas('stats_deltas')).toBe(0);
  });

  /** The console's counters as its job keeps them, and as counted from scratch. */
  const consoleCounts = async (dayStartMs: number) => {
    const day = new Date(dayStartMs).toISOString().slice(0, 10);
    const f = (await h.db.query<{ invited: number; reached_100: number; bonus_paid: number }>('SELECT invited, reached_100, bonus_paid FROM console_funnel')).rows[0]!;
    const d = (await h.db.query<{ active_players: number; total_players: number }>('SELECT active_players, total_players FROM daily_stats WHERE day = $1::date', [day])).rows[0];
    return { invited: Number(f.invited), reached: Number(f.reached_100), paid: Number(f.bonus_paid), active: Number(d?.active_players ?? 0), total: Number(d?.total_players ?? 0) };
  };
  const consoleFromScratch = async (dayStartMs: number) => {
    const f = (
      await h.db.query<{ i: number; r: number; p: number }>(
        "SELECT count(*)::int AS i, (count(*) FILTER (WHERE clicked_at_ms IS NOT NULL OR status = 'credited'))::int AS r, (count(*) FILTER (WHERE status = 'credited'))::int AS p FROM referrals",
      )
    ).rows[0]!;
    const a = (await h.db.query<{ n: number; t: number }>('SELECT (count(*) FILTER (WHERE last_active_ms >= $1))::int AS n, count(*)::int AS t FROM users', [dayStartMs])).rows[0]!;
    return { invited: f.i, reached: f.r, paid: f.p, active: a.n, total: a.t };
  };

  it('keeps active players per day and the referral funnel as counters; a failed fold adds nothing; a rebuild agrees', async () => {
    const today = Math.floor(h.clock.now() / dayMs) * dayMs;
    const refcode = (await h.call('GET', '', ids[0]!)).json<UserStatus & { refcode: string }>().refcode;
    const friends = [await h.newPlayer(), await h.newPlayer(), await h.newPlayer()];
    for (const f of friends) expect((await h.call('POST', '/referral', f, { query: { refcode } })).statusCode).toBe(200);
    // One friend reached $100 (pending on the channel), one was paid.
    await h.db.query('UPDATE referrals SET clicked_at_ms = $2 WHERE friend_id = $1', [friends[0], h.clock.now()]);
    await h.db.query("UPDATE referrals SET clicked_at_ms = $2, status = 'credited', credited_at_ms = $2 WHERE friend_id = $1", [friends[1], h.clock.now()]);
    await refreshConsoleAggregates(h.db, h.clock.now());
    expect(await consoleCounts(today)).toEqual(await consoleFromScratch(today));
    expect(await consoleCounts(today)).toMatchObject({ invited: 3, reached: 2, paid: 1 });

    // The next day: two players come back; the fold of the first try fails and adds nothing.
    h.clock.advance(dayMs);
    const tomorrow = today + dayMs;
    await h.call('GET', '', ids[1]!);
    await h.call('GET', '', friends[2]!);
    await h.db.query("UPDATE referrals SET clicked_at_ms = $2, status = 'credited', credited_at_ms = $2 WHERE friend_id = $1", [friends[0], h.clock.now()]);
    const before = await consoleCounts(tomorrow);
    await expect(
      h.db.transaction(async (tx) => {
        expect(await foldConsoleCounters(tx, h.clock.now())).toBeGreaterThan(0);
        throw new Error('crash');
      }),
    ).rejects.toThrow('crash');
    expect(await deltas('console_deltas')).toBeGreaterThan(0);
    expect(await consoleCounts(tomorrow)).toEqual(before);
    await refreshConsoleAggregates(h.db, h.clock.now());
    await refreshConsoleAggregates(h.db, h.clock.now());
    expect(await consoleCounts(tomorrow)).toEqual({ ...(await consoleFromScratch(tomorrow)), active: 2 });
    // Yesterday keeps its count (the player active on both days counts on both).
    expect((await consoleCounts(today)).active).toBeGreaterThanOrEqual(ids.length + friends.length);

    const maintained = await consoleCounts(tomorrow);
    await rebuildConsoleCounters(h.db, h.clock.now());
    expect(await consoleCounts(tomorrow)).toEqual(maintained);
    expect(await deltas('console_deltas')).toBe(0);
  });
});
