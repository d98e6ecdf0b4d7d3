/**
 * The ranked view while it catches up with players who arrived at once (docs/scaling.md "A bulk
 * import"): players bulk-inserted with plain SQL, as an import from another system or a restore
 * would, every one of them marked by the trigger. From the first query on, and after every step of
 * the ranks job until it has caught up, every answer must keep the promise: the own rank and the
 * page it falls on from one version, page ranks contiguous, `total` the players the view holds,
 * a player not yet ranked at `total + 1` and listed there on their own page. Past the threshold the
 * job rebuilds the view instead, by a table swap, and readers see the old view or the new one,
 * never a part and never an error; the changes made meanwhile are applied after the swap.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaderboardEntry } from '../../engine/wire/api-types.ts';
import { money, toWire } from '../../engine/rules/money.ts';
import { leaderboardMetrics } from '../../server/leaderboard/exports.ts';
import { leaderboardFromView, type LeaderboardPage } from '../../server/leaderboard/leaderboard.ts';
import { applyPendingRanks, applyRankChanges, catchUpRanks, marksWaiting, rebuildRanks, rebuildThreshold } from '../../server/leaderboard/rank-view.ts';
import { ranksJob } from '../../server/leaderboard/ranks-job.ts';
import { setBalances } from './db-helpers.ts';
import { backends, openHarness, type Harness } from './harness.ts';

const pageSize = 10;
const blockSize = 16;

/** Every invariant one answer must hold by itself, whatever version of the view it read. */
const expectSound = (a: LeaderboardPage, userId: number, page: number) => {
  const [own, ...list] = a.items as [LeaderboardEntry, ...LeaderboardEntry[]];
  const offset = (page - 1) * pageSize;
  expect(own.id).toBe(String(userId));
  expect(own.rank).toBeGreaterThanOrEqual(1);
  expect(own.rank).toBeLessThanOrEqual(a.total + 1);
  // Contiguous from the page's first rank; exactly the view's entries that fall on it.
  expect(list.map((e) => e.rank)).toEqual(list.map((_, i) => offset + i + 1));
  const ranked = list.filter((e) => e.rank <= a.total);
  expect(ranked.length).toBe(Math.max(0, Math.min(pageSize, a.total - offset)));
  // Past the view's entries: only the player themselves, unranked, at total + 1.
  const unrankedOnPage = own.rank === a.total + 1 && offset <= a.total && a.total < offset + pageSize;
  expect(list.filter((e) => e.rank > a.total).map((e) => e.id)).toEqual(unrankedOnPage ? [own.id] : []);
  // The own rank agrees with the page it falls on.
  if (own.rank > offset && own.rank <= offset + pageSize) expect(list.find((e) => e.rank === own.rank)).toMatchObject({ id: own.id, reward: own.reward });
  // In leaderboard order: MONEY down, ties by ascending id.
  for (let i = 1; i < ranked.length; i++) {
    const [p, q] = [ranked[i - 1]!, ranked[i]!];
    const c = money(p.reward).comparedTo(money(q.reward));
    expect(c > 0 || (c === 0 && BigInt(p.id) < BigInt(q.id))).toBe(true);
  }
};

describe.each(backends)('ranks while the view catches up with a bulk import (%s)', (backend) => {
  let h: Harness;
  const early: number[] = [];
  let nextBase = 8_100_000_000 + Math.floor(Math.random() * 1_000) * 1_000_000;

  beforeAll(async () => {
    h = await openHarness(backend);
    for (let i = 0; i < 12; i++) {
      const id = await h.newPlayer();
      early.push(id);
      if (i % 3 !== 0) await setBalances(h.db, id, { totalMoney: String(i * 7) });
    }
    // Small blocks, so the catch-up splits blocks all the way.
    await rebuildRanks(h.db, h.clock.now(), blockSize);
  });
  afterAll(async () => {
    await h?.close();
  });

  /** `n` players inserted by one plain INSERT … SELECT (and their ledger rows), as an import does; their ids. */
  const bulkImport = async (n: number): Promise<number[]> => {
    const base = nextBase;
    nextBase += 1_000_000;
    await h.db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO users (id, refcode, total_money, energy_at_ms, tap_clock_ms, last_claimed_ms, created_at_ms, last_active_ms)
         SELECT $1::bigint + g, 'imp' || ($1::bigint + g), CASE WHEN g % 4 = 0 THEN 0 ELSE ((g * 7919) % 300) / 10.0 END, $3, $3, $3, $3, $3
         FROM generate_series(1, $2::int) AS g`,
        [base, n, h.clock.now()],
      );
      await tx.query(
        `INSERT INTO ledger (user_id, currency, amount, kind, created_at_ms)
         SELECT id, 'MONEY', total_money, 'welcome', $3 FROM users WHERE id > $1 AND id <= $1::bigint + $2::bigint`,
        [base, n, h.clock.now()],
      );
    });
    return Array.from({ length: n }, (_, i) => base + i + 1);
  };

  const count = async (sql: string) => Number((await h.db.query<{ n: number }>(sql)).rows[0]!.n);
  const lastPageOf = (total: number) => Math.max(1, Math.ceil(total / pageSize));

  /** The leaderboard computed here from users, not by the view: MONEY down, ties by ascending id. */
  const scratch = async (): Promise<{ id: number; m: string }[]> => {
    const users = (await h.db.query<{ id: number; m: string }>('SELECT id, total_money AS m FROM users')).rows;
    return users.sort((a, b) => money(b.m).comparedTo(money(a.m)) || a.id - b.id);
  };
  /** Every page of the view, and the own rank of each page's first player, as the ranking from scratch has them. */
  const expectScratch = async () => {
    const order = await scratch();
    for (let page = 1; page <= lastPageOf(order.length); page++) {
      const offset = (page - 1) * pageSize;
      const first = order[offset]!;
      const a = await leaderboardFromView(h.db, first.id, page, pageSize);
      expect(a.total).toBe(order.length);
      expect(a.items.map((e) => [e.id, e.rank, e.reward])).toEqual(
        [first, ...order.slice(offset, offset + pageSize)].map((u, i) => [String(u.id), offset + Math.max(i, 1), toWire(u.m)]),
      );
    }
  };

  it('keeps every answer sound from the first query until the job has caught up, a step at a time', async () => {
    const ids = await bulkImport(2_000);
    const sample = [early[0]!, early[7]!, ids[0]!, ids[3]!, ids[999]!, ids[1_998]!];
    let steps = 0;
    let unrankedSeen = 0;
    for (;;) {
      // `total` is what the view holds, whatever is still waiting.
      const held = await count('SELECT count(*)::int AS n FROM rank_entries');
      for (const id of sample) {
        const first = await leaderboardFromView(h.db, id, 1, pageSize);
        expectSound(first, id, 1);
        expect(first.total).toBe(held);
        const own = first.items[0]!;
        if (own.rank === first.total + 1) unrankedSeen += 1;
        // The page the own rank falls on, read before the job moves again: the same version.
        const page = Math.ceil(own.rank / pageSize);
        const onIt = await leaderboardFromView(h.db, id, page, pageSize);
        expectSound(onIt, id, page);
        expect(onIt.items[0]).toEqual(own);
        expect(onIt.items.slice(1).filter((e) => e.id === own.id)).toEqual([own]);
        expectSound(await leaderboardFromView(h.db, id, lastPageOf(first.total), pageSize), id, lastPageOf(first.total));
      }
      if ((await marksWaiting(h.db, 1_000_000)) === 0) break;
      await applyRankChanges(h.db, h.clock.now(), { maxMarks: 250 });
      steps += 1;
    }
    expect(steps).toBeGreaterThanOrEqual(6);
    expect(unrankedSeen).toBeGreaterThan(0);
    // Caught up: the view holds every player, and each sampled player is ranked where users put them.
    const players = await count('SELECT count(*)::int AS n FROM users');
    for (const id of sample) {
      const a = await leaderboardFromView(h.db, id, 1, pageSize);
      expect(a.total).toBe(players);
      const place = await count(
        `SELECT count(*)::int + 1 AS n FROM users u, users me WHERE me.id = ${id} AND (u.total_money, -u.id) > (me.total_money, -me.id)`,
      );
      expect(a.items[0]!.rank).toBe(place);
    }
  });

  it('rebuilds the view instead once the marks pass the threshold: answers come from the old view or the new one, never a part', async () => {
    const ids = await bulkImport(1_500);
    const old = await count('SELECT total::int AS n FROM rank_meta');
    const players = await count('SELECT count(*)::int AS n FROM users');
    const seen = new Set<number>();
    let done = false;
    const readers = Array.from({ length: backend === 'postgres' ? 3 : 1 }, async (_, r) => {
      let i = r;
      do {
        const id = ids[(i * 397) % ids.length]!;
        const a = await leaderboardFromView(h.db, id, 1, pageSize);
        expectSound(a, id, 1);
        seen.add(a.total);
        const page = Math.ceil(a.items[0]!.rank / pageSize);
        expectSound(await leaderboardFromView(h.db, id, page, pageSize), id, page);
        i += 3;
      } while (!done);
    });
    const step = await catchUpRanks(h.db, h.clock.now(), { rebuildAt: 1_000 }).finally(() => {
      done = true;
    });
    await Promise.all(readers);
    expect(step).toMatchObject({ kind: 'rebuild', waiting: 1_000, rebuilt: { players } });
    expect([...seen].every((t) => t === old || t === players)).toBe(true);
    // The rebuild took the marks it covered: nothing is left to apply.
    expect(await marksWaiting(h.db, 1_000_000)).toBe(0);
    const a = await leaderboardFromView(h.db, ids[0]!, 1, pageSize);
    expect(a.total).toBe(players);
    expect(a.items[0]!.rank).toBeLessThanOrEqual(players);
  });

  it('swaps the rebuilt view in while readers read: each answer is all old view or all new, and changes made meanwhile are applied after', async () => {
    const ids = await bulkImport(1_500);
    const old = await count('SELECT total::int AS n FROM rank_meta');
    // The ranks the new view must give: users as the build will read them.
    const atBuild = new Map((await scratch()).map((u, i) => [u.id, i + 1]));
    const players = atBuild.size;
    const changed = ids.slice(0, 40);
    let done = false;
    let answers = 0;
    const readers = Array.from({ length: backend === 'postgres' ? 3 : 1 }, async (_, r) => {
      let i = r;
      let total = old;
      do {
        const id = ids[(i * 397) % ids.length]!;
        const a = await leaderboardFromView(h.db, id, 1, pageSize);
        expectSound(a, id, 1);
        // The old view has not ranked the import; the new one ranks it where users had it at the build.
        if (a.total === old) expect(a.items[0]!.rank).toBe(old + 1);
        else expect([a.total, a.items[0]!.rank]).toEqual([players, atBuild.get(id)]);
        const page = Math.ceil(a.items[0]!.rank / pageSize);
        expectSound(await leaderboardFromView(h.db, id, page, pageSize), id, page);
        answers += 1;
        i += 3;
        total = a.total;
        // Each reader ends on an answer of the new view.
      } while (!done || total !== players);
    });
    const rebuilt = await rebuildRanks(h.db, h.clock.now(), blockSize, {
      afterBuild: async () => {
        // Built, not yet swapped in: these changes leave marks the build did not take.
        for (const [k, id] of changed.entries()) await setBalances(h.db, id, { totalMoney: String(1_000 + k) });
        expect((await leaderboardFromView(h.db, changed[0]!, 1, pageSize)).total).toBe(old);
      },
    }).finally(() => {
      done = true;
    });
    await Promise.all(readers);
    expect(answers).toBeGreaterThan(0);
    expect(rebuilt).toMatchObject({ players });
    expect(rebuilt.swapMs).toBeLessThanOrEqual(rebuilt.durationMs);
    // The new view is the build's: the changes made after it wait as marks, then the apply takes them.
    expect(await marksWaiting(h.db, 1_000_000)).toBe(changed.length);
    expect((await leaderboardFromView(h.db, changed[0]!, 1, pageSize)).items[0]!.rank).toBe(atBuild.get(changed[0]!));
    expect(await applyPendingRanks(h.db, h.clock.now())).toMatchObject({ marks: changed.length, moved: changed.length });
    expect(await marksWaiting(h.db, 1_000_000)).toBe(0);
    expect((await leaderboardFromView(h.db, changed.at(-1)!, 1, pageSize)).items[0]!.rank).toBe(1);
    await expectScratch();
  });

  it('rebuilds a few thousand players into the ranking computed from scratch, under the names and settings of migration 0980', async () => {
    await bulkImport(2_000);
    const rebuilt = await rebuildRanks(h.db, h.clock.now(), blockSize);
    expect(rebuilt.players).toBe(await count('SELECT count(*)::int AS n FROM users'));
    await expectScratch();
    const names = await h.db.query<{ t: string; names: string[] }>(
      `SELECT t, ARRAY(SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema() AND tablename = t ORDER BY 1) AS names
       FROM unnest(ARRAY['rank_entries', 'rank_blocks']) AS t ORDER BY t`,
    );
    expect(names.rows).toEqual([
      { t: 'rank_blocks', names: ['rank_blocks_above_idx', 'rank_blocks_pkey'] },
      { t: 'rank_entries', names: ['rank_entries_key_idx', 'rank_entries_pkey', 'rank_entries_version_idx'] },
    ]);
    // PostgreSQL 18 (PGlite) keeps NOT NULL constraints in pg_constraint too, named table_column_not_null.
    const constraints = await h.db.query<{ conname: string; canonical: string }>(
      `SELECT c.conname::text AS conname, CASE WHEN c.contype = 'n' THEN r.relname || '_' || a.attname || '_not_null' ELSE c.conname::text END AS canonical
       FROM pg_constraint c JOIN pg_class r ON r.oid = c.conrelid LEFT JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
       WHERE c.conrelid IN ('rank_entries'::regclass, 'rank_blocks'::regclass) ORDER BY 1`,
    );
    expect(constraints.rows.filter((c) => !c.conname.endsWith('_not_null')).map((c) => c.conname)).toEqual(['rank_blocks_n_check', 'rank_blocks_pkey', 'rank_entries_pkey']);
    expect(constraints.rows.filter((c) => c.conname !== c.canonical)).toEqual([]);
    const settings = await h.db.query<{ relname: string; fill: string | null }>(
      `SELECT relname::text AS relname, (SELECT o FROM unnest(reloptions) AS o WHERE o LIKE 'fillfactor=%') AS fill
       FROM pg_class WHERE oid IN ('rank_entries'::regclass, 'rank_blocks'::regclass) ORDER BY 1`,
    );
    expect(settings.rows).toEqual([{ relname: 'rank_blocks', fill: 'fillfactor=50' }, { relname: 'rank_entries', fill: 'fillfactor=90' }]);
    expect(await count("SELECT (to_regclass('rank_entries_next') IS NULL AND to_regclass('rank_blocks_next') IS NULL AND NOT EXISTS (SELECT 1 FROM rank_next))::int AS n")).toBe(1);
  });

  it('finishes a rebuild that stopped between its build and its swap before applying a mark', async () => {
    const ids = await bulkImport(300);
    const players = await count('SELECT count(*)::int AS n FROM users');
    await expect(rebuildRanks(h.db, h.clock.now(), blockSize, { afterBuild: () => Promise.reject(new Error('stopped')) })).rejects.toThrow('stopped');
    await setBalances(h.db, ids[0]!, { totalMoney: '5000' });
    // The marks are for the view waiting to be swapped in, not for the one about to go.
    expect(await applyRankChanges(h.db, h.clock.now())).toBeNull();
    expect(await catchUpRanks(h.db, h.clock.now())).toMatchObject({ kind: 'rebuild', rebuilt: { players } });
    expect(await marksWaiting(h.db, 1_000_000)).toBe(1);
    expect(await catchUpRanks(h.db, h.clock.now())).toMatchObject({ kind: 'apply', applied: { marks: 1, moved: 1 } });
    await expectScratch();
  });

  it('drops a build the old view moved past (an apply of the previous code, mid-deploy) and marks every player for the next rebuild', async () => {
    await bulkImport(200);
    const players = await count('SELECT count(*)::int AS n FROM users');
    const before = await count('SELECT version::int AS n FROM rank_meta');
    await rebuildRanks(h.db, h.clock.now(), blockSize, { afterBuild: () => h.db.query('UPDATE rank_meta SET version = version + 1').then(() => {}) });
    expect(await count('SELECT version::int AS n FROM rank_meta')).toBe(before + 1);
    expect(await marksWaiting(h.db, 1_000_000)).toBe(players);
    expect(await catchUpRanks(h.db, h.clock.now(), { rebuildAt: players })).toMatchObject({ kind: 'rebuild', rebuilt: { players } });
    expect(await marksWaiting(h.db, 1_000_000)).toBe(0);
    await expectScratch();
  });

  it.skipIf(backend !== 'postgres')('waits for a reader holding the old view a fifth of a second at a time, so readers behind the swap wait no longer', async () => {
    const ids = await bulkImport(200);
    const players = await count('SELECT count(*)::int AS n FROM users');
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    let holder: Promise<void> = Promise.resolve();
    let readers: Promise<void>[] = [];
    let slowest = 0;
    const rebuilt = await rebuildRanks(h.db, h.clock.now(), blockSize, {
      // A long reader holds the old tables for 0.7 s as the swap begins, and others keep reading.
      afterBuild: async () => {
        let held!: () => void;
        const holding = new Promise<void>((r) => {
          held = r;
        });
        holder = h.db.transaction(async (tx) => {
          await tx.query('SELECT count(*) FROM rank_entries');
          held();
          await sleep(700);
        });
        await holding;
        readers = Array.from({ length: 20 }, async (_, i) => {
          await sleep(20 + i * 30);
          const started = performance.now();
          expectSound(await leaderboardFromView(h.db, ids[i]!, 1, pageSize), ids[i]!, 1);
          slowest = Math.max(slowest, performance.now() - started);
        });
      },
    });
    await Promise.all([holder, ...readers]);
    expect(rebuilt.players).toBe(players);
    // The swap gave up while the long reader held the tables and took them once it was done; the
    // readers queued behind each try waited for that try only.
    expect(rebuilt.swapMs).toBeGreaterThanOrEqual(400);
    expect(slowest).toBeLessThan(500);
  });

  it.skipIf(backend !== 'postgres')('keeps every answer sound while the job applies concurrently with readers', async () => {
    const ids = await bulkImport(2_500);
    let done = false;
    const job = (async () => {
      try {
        while ((await marksWaiting(h.db, 1_000_000)) > 0) await applyRankChanges(h.db, h.clock.now(), { maxMarks: 200 });
      } finally {
        done = true;
      }
    })();
    let answers = 0;
    const readers = Array.from({ length: 4 }, async (_, r) => {
      let last = 0;
      let i = r;
      while (!done) {
        const id = ids[(i * 613) % ids.length]!;
        const a = await leaderboardFromView(h.db, id, 1, pageSize);
        expectSound(a, id, 1);
        // Versions only move forward, and an import only adds players.
        expect(a.total).toBeGreaterThanOrEqual(last);
        last = a.total;
        const page = Math.ceil(a.items[0]!.rank / pageSize);
        expectSound(await leaderboardFromView(h.db, id, page, pageSize), id, page);
        answers += 2;
        i += 4;
      }
    });
    await Promise.all([job, ...readers]);
    expect(answers).toBeGreaterThan(10);
    expect(await count('SELECT total::int AS n FROM rank_meta')).toBe(await count('SELECT count(*)::int AS n FROM users'));
  });

  it('reports the marks waiting and the lag while the job catches up, and both at 0 once it has', async () => {
    const t0 = h.clock.now();
    const tick = ranksJob(h.db, undefined, { rebuildAt: 100_000, maxMarks: 100 });
    await tick(t0);
    expect((await leaderboardMetrics.lagSeconds.get()).values[0]?.value).toBe(0);
    await bulkImport(1_200);
    // Ten applies of 100 marks a tick: 200 are left after the first tick, seconds after the view last caught up.
    h.clock.advance(7_000);
    const first = await tick(h.clock.now());
    expect(first).toMatchObject({ waiting: 1_200, applied: { marks: 1_000 } });
    expect((await leaderboardMetrics.marksWaiting.get()).values[0]?.value).toBe(200);
    expect((await leaderboardMetrics.lagSeconds.get()).values[0]?.value).toBeGreaterThanOrEqual(7);
    h.clock.advance(1_000);
    await tick(h.clock.now());
    expect((await leaderboardMetrics.marksWaiting.get()).values[0]?.value).toBe(0);
    expect((await leaderboardMetrics.lagSeconds.get()).values[0]?.value).toBe(0);
  });

  it('rebuilds past a twentieth of the players, and never below 100,000 marks', () => {
    expect(rebuildThreshold(0)).toBe(100_000);
    expect(rebuildThreshold(1_000_000)).toBe(100_000);
    expect(rebuildThreshold(10_000_000)).toBe(500_000);
  });
});
