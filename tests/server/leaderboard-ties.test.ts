/**
 * The leaderboard's read from the ranked view (server/leaderboard/leaderboard.ts) costs what one
 * block costs, however many players share a balance: a B-tree scan bounded by a row comparison
 * stops on its first column only, so a count or a page inside a long run of ties (most new players
 * hold 0 MONEY) must be bounded by the block itself (docs/scaling.md, "Leaderboard"). Measured as
 * the buffers the statement touches (EXPLAIN ANALYZE), never as time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaderboardFromView, leaderboardViewSql } from '../../server/leaderboard/leaderboard.ts';
import { rebuildRanks } from '../../server/leaderboard/rank-view.ts';
import { backends, openHarness, type Harness } from './harness.ts';

const blockSize = 4;
const tied = 20_000;
const firstId = 5_000_000;

interface PlanNode {
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
}

describe.each(backends)('leaderboard inside a run of %s ties', (backend) => {
  let h: Harness;

  beforeAll(async () => {
    h = await openHarness(backend);
    // 20,000 players at 0 MONEY and ten above them; blocks of 4 entries.
    await h.db.query(
      `INSERT INTO users (id, refcode, total_money, energy_at_ms, tap_clock_ms, last_claimed_ms, created_at_ms)
       SELECT $1::bigint + g, 't' || g, CASE WHEN g <= 10 THEN 100 + g ELSE 0 END, 0, 0, 0, 0 FROM generate_series(1, $2::int) AS g`,
      [firstId, tied + 10],
    );
    await rebuildRanks(h.db, h.clock.now(), blockSize);
  }, 120_000);
  afterAll(async () => h?.close());

  /** Buffers the statement touched for `userId` and `offset`, from its plan's top node. */
  const buffersOf = async (userId: number, offset: number): Promise<number> => {
    const r = await h.db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] | string }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${leaderboardViewSql}`, [userId, offset, 10]);
    const raw = r.rows[0]!['QUERY PLAN'];
    const plan = (typeof raw === 'string' ? (JSON.parse(raw) as [{ Plan: PlanNode }]) : raw)[0].Plan;
    return (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0);
  };

  it('ranks the first tied player, after the ten above, and reads about a block to do it', async () => {
    const first = firstId + 11;
    const page = await leaderboardFromView(h.db, first, 1, 10);
    expect(page.items[0]!.rank).toBe(11);
    expect(page.total).toBe(tied + 10);
    // The statement touches ~50 buffers (11 users rows, the blocks, one block of entries); a scan
    // through the 20,000 ties touched ~190 on PostgreSQL 15.
    expect(await buffersOf(first, 0)).toBeLessThan(100);
  });

  it('ranks the last tied player last, and pages the last page, each within a block', async () => {
    const last = firstId + tied + 10;
    const page = await leaderboardFromView(h.db, last, Math.ceil((tied + 10) / 10), 10);
    expect(page.items[0]!.rank).toBe(tied + 10);
    expect(page.items.at(-1)!.rank).toBe(tied + 10);
    expect(await buffersOf(last, tied)).toBeLessThan(100);
  });
});
