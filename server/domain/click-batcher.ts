import { applyTaps } from '../../engine/clicks.ts';
import { economy } from '../../engine/economy.ts';
import { money, toWire } from '../../engine/money.ts';
import type { Clock } from '../clock.ts';
import type { Db, Queryable } from '../db/db.ts';
import { transaction } from '../db/retry.ts';
import { settleInviteBonus } from './ledger.ts';
import type { UserRow } from './users.ts';

/** What one POST /click gets back: the accepted taps and the player's row after its group committed. */
export interface ClickAnswer {
  accepted: number;
  /** True when the batchId was seen before: the first answer's count, nothing credited again. */
  replay: boolean;
  row: UserRow;
  nowMs: number;
}

interface Pending {
  userId: number;
  click: number;
  batchId: string | null;
  resolve(a: ClickAnswer): void;
  reject(e: unknown): void;
}

export interface ClickBatcherOptions {
  /** Most requests in one group (one transaction, a handful of statements). */
  maxGroup?: number;
  /** Groups in flight at once (PGlite runs one at a time anyway). */
  concurrency?: number;
}

/**
 * Group commit for POST /click: concurrent batches are applied in one statement for all their
 * players (`applyGroupUnlocked`: compare-and-swap, no row locks, two round trips), and each request
 * is answered only after its group committed. A player is in at most one group in flight, and a
 * row another route changed meanwhile fails the swap and is redone under FOR UPDATE, so no update
 * is lost.
 */
export class ClickBatcher {
  private queue: Pending[] = [];
  private inFlight = 0;
  private readonly maxGroup: number;
  private readonly concurrency: number;
  /** Users in groups now committing: their next requests wait for the following group. */
  private readonly busy = new Set<number>();
  /** Each player's row as our last group left it: a hint the swap checks, never trusted alone. */
  private readonly known = new RowCache(100_000);

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    opts: ClickBatcherOptions = {},
  ) {
    // PGlite runs on this thread: smaller groups keep the event loop answering between them.
    this.maxGroup = opts.maxGroup ?? (db.kind === 'postgres' ? 1_000 : 250);
    // One group at a time: the next group collects everything that arrived meanwhile. Measured on
    // 2 cores (bench:server, load ~4): 1 → 6.5–7.6k batches/s and 56–65 ms PostgreSQL CPU per 1,000
    // batches; 2 → 6.4–6.6k and 85; 3 → 6.0–6.1k and 105 (smaller groups, more per-statement work).
    this.concurrency = opts.concurrency ?? 1;
  }

  submit(userId: number, click: number, batchId: string | null): Promise<ClickAnswer> {
    return new Promise((resolve, reject) => {
      this.queue.push({ userId, click, batchId, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.concurrency && this.queue.length > 0) {
      // Take requests of players not already in a committing group (keeps one player's batches in order).
      const group: Pending[] = [];
      const rest: Pending[] = [];
      const taken = new Set<number>();
      for (const p of this.queue) {
        if (group.length < this.maxGroup && !this.busy.has(p.userId)) {
          group.push(p);
          taken.add(p.userId);
        } else rest.push(p);
      }
      if (group.length === 0) return;
      this.queue = rest;
      for (const id of taken) this.busy.add(id);
      this.inFlight++;
      void this.run(group).finally(() => {
        for (const id of taken) this.busy.delete(id);
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async run(group: Pending[]): Promise<void> {
    try {
      const answers = await applyGroupCached(this.db, group, () => this.clock.now(), this.known);
      group.forEach((p, i) => p.resolve(answers[i]!));
    } catch (err) {
      for (const p of group) this.known.delete(p.userId);
      for (const p of group) p.reject(err);
    }
  }
}

/** A bounded map of user rows (oldest entry dropped first). */
export class RowCache {
  private readonly map = new Map<number, UserRow>();
  constructor(private readonly limit: number) {}
  get(id: number): UserRow | undefined {
    return this.map.get(id);
  }
  set(id: number, row: UserRow): void {
    this.map.delete(id);
    this.map.set(id, row);
    if (this.map.size > this.limit) this.map.delete(this.map.keys().next().value as number);
  }
  delete(id: number): void {
    this.map.delete(id);
  }
}

/** A group's reads: each player's row and the batchIds of this group they already have. */
interface GroupRead {
  rows: Map<number, UserRow>;
  seen: Map<string, number>;
}

/** What one group writes: the players' new state, the new batchIds and their ledger rows. */
interface GroupPlan {
  results: { accepted: number; replay: boolean; userId: number }[];
  /** Players whose row changes, with the values read (the compare-and-swap's expectation). */
  changed: Map<number, UserRow>;
  before: Map<number, UserRow>;
  newBatches: { userId: number; batchId: string; requested: number; accepted: number }[];
  ledger: { userId: number; amount: string; reference: string | null }[];
}

const readSql = (lock: boolean): string =>
  `SELECT u.*, (SELECT json_object_agg(b.batch_id, b.accepted) FROM click_batches b
                WHERE b.user_id = u.id AND b.batch_id = ANY($2::text[])) AS seen
   FROM users u WHERE u.id = ANY($1::bigint[]) ORDER BY u.id${lock ? ' FOR UPDATE OF u' : ''}`;

const readGroup = async (q: Queryable, group: readonly Omit<Pending, 'resolve' | 'reject'>[], lock: boolean): Promise<GroupRead> => {
  const ids = [...new Set(group.map((p) => p.userId))].sort((a, b) => a - b);
  const batchIds = [...new Set(group.flatMap((p) => (p.batchId === null ? [] : [p.batchId])))];
  const r = await q.query<UserRow & { seen: Record<string, number> | null }>(readSql(lock), [ids, batchIds]);
  const rows = new Map<number, UserRow>();
  const seen = new Map<string, number>();
  for (const { seen: prior, ...row } of r.rows) {
    rows.set(row.id, row);
    for (const [batchId, accepted] of Object.entries(prior ?? {})) seen.set(`${row.id}:${batchId}`, accepted);
  }
  return { rows, seen };
};

/** Runs the engine rule over a group in request order, mutating `read.rows` to the state after it. */
const planGroup = (read: GroupRead, group: readonly Omit<Pending, 'resolve' | 'reject'>[], nowMs: number): GroupPlan => {
  const { rows, seen } = read;
  const plan: GroupPlan = { results: [], changed: new Map(), before: new Map(), newBatches: [], ledger: [] };
  for (const p of group) {
    const row = rows.get(p.userId);
    if (row === undefined) throw new Error(`click for unknown user ${p.userId}`);
    const key = p.batchId === null ? null : `${p.userId}:${p.batchId}`;
    const first = key === null ? undefined : seen.get(key);
    if (first !== undefined) {
      plan.results.push({ accepted: first, replay: true, userId: p.userId });
      continue;
    }
    const out = applyTaps(
      { energy: row.energy, energyAtMs: row.energy_at_ms, energyLevel: row.energy_level, fingerLevel: row.finger_level, tapClockMs: row.tap_clock_ms },
      p.click,
      nowMs,
    );
    if (out.accepted > 0) {
      if (!plan.before.has(p.userId)) plan.before.set(p.userId, { ...row });
      row.energy = out.energy;
      row.energy_at_ms = out.energyAtMs;
      row.tap_clock_ms = out.tapClockMs;
      row.total_click += out.accepted;
      // earned is an integer number of dollars (accepted × click value), so this stays exact.
      row.total_earn = toWire(money(row.total_earn).plus(out.earned));
      plan.changed.set(p.userId, row);
      plan.ledger.push({ userId: p.userId, amount: String(out.earned), reference: p.batchId });
    }
    if (key !== null) {
      seen.set(key, out.accepted);
      plan.newBatches.push({ userId: p.userId, batchId: p.batchId!, requested: p.click, accepted: out.accepted });
    }
    plan.results.push({ accepted: out.accepted, replay: false, userId: p.userId });
  }
  return plan;
};

/** True when a player of the plan crosses the $100 that releases a pending invite bonus. */
const crossesInviteThreshold = (plan: GroupPlan): boolean => {
  const threshold = money(economy.pendingFriendThresholdDollars);
  for (const [id, row] of plan.changed) {
    if (row.referred_by !== null && money(plan.before.get(id)!.total_earn).lt(threshold) && money(row.total_earn).gte(threshold)) return true;
  }
  return false;
};

const answersOf = (plan: GroupPlan, rowOf: (id: number) => UserRow, nowMs: number): ClickAnswer[] =>
  plan.results.map((r) => ({ accepted: r.accepted, replay: r.replay, row: { ...rowOf(r.userId) }, nowMs }));

/**
 * Applies one group of click batches in the caller's transaction, rows locked in id order (FOR
 * UPDATE); answers in request order. The fallback of `applyGroupUnlocked`, and the path that
 * releases a pending invite bonus in the same transaction as the click that earns it.
 */
export const applyGroup = async (
  tx: Queryable,
  group: readonly Omit<Pending, 'resolve' | 'reject'>[],
  now: number | (() => number),
): Promise<ClickAnswer[]> => {
  const read = await readGroup(tx, group, true);
  // The time is read once the rows are locked, so it is never earlier than a write we waited for.
  const nowMs = typeof now === 'number' ? now : now();
  const plan = planGroup(read, group, nowMs);
  const rows = read.rows;

  // One write: the players' new state, the new batchIds and their ledger rows.
  if (plan.changed.size > 0 || plan.newBatches.length > 0) {
    const c = [...plan.changed.values()];
    const { newBatches, ledger } = plan;
    await tx.query(
      `WITH upd AS (
         UPDATE users u SET total_earn = v.earn, total_click = v.clicks, energy = v.energy, energy_at_ms = v.eat, tap_clock_ms = v.tc
         FROM unnest($1::bigint[], $2::numeric[], $3::bigint[], $4::int[], $5::bigint[], $6::bigint[]) AS v(id, earn, clicks, energy, eat, tc)
         WHERE u.id = v.id RETURNING 1
       ), bat AS (
         INSERT INTO click_batches (user_id, batch_id, requested, accepted, created_at_ms)
         SELECT * , $11::bigint FROM unnest($7::bigint[], $8::text[], $9::int[], $10::int[]) RETURNING 1
       ), led AS (
         INSERT INTO ledger (user_id, currency, amount, kind, reference, created_at_ms)
         SELECT u, 'DOLLAR', a, 'click', r, $11::bigint FROM unnest($12::bigint[], $13::numeric[], $14::text[]) AS l(u, a, r) RETURNING 1
       ) SELECT (SELECT count(*) FROM upd) AS u, (SELECT count(*) FROM bat) AS b, (SELECT count(*) FROM led) AS l`,
      [
        c.map((r) => r.id), c.map((r) => r.total_earn), c.map((r) => r.total_click), c.map((r) => r.energy), c.map((r) => r.energy_at_ms), c.map((r) => r.tap_clock_ms),
        newBatches.map((b) => b.userId), newBatches.map((b) => b.batchId), newBatches.map((b) => b.requested), newBatches.map((b) => b.accepted), nowMs,
        ledger.map((l) => l.userId), ledger.map((l) => l.amount), ledger.map((l) => l.reference),
      ],
    );
  }

  // A friend whose clicks take totalEarn to $100 releases the pending invite bonus (rare).
  const threshold = money(economy.pendingFriendThresholdDollars);
  for (const [id, row] of plan.changed) {
    if (row.referred_by !== null && money(plan.before.get(id)!.total_earn).lt(threshold) && money(row.total_earn).gte(threshold)) {
      if (await settleInviteBonus(tx, id, nowMs)) {
        const fresh = await tx.query<UserRow>('SELECT * FROM users WHERE id = $1', [id]);
        rows.set(id, fresh.rows[0]!);
      }
    }
  }
  return answersOf(plan, (id) => rows.get(id)!, nowMs);
};

/**
 * The group write, one autocommitted statement: a compare-and-swap UPDATE of every changed player,
 * applied only where the stored row still has every value the rule read, plus the INSERTs of the
 * group's batch ids and ledger rows for the players it updated (on the read path also the batch ids
 * of players whose taps were all refused, who have no row change). With `cachedBatchIds` (the cached
 * path, whose rule ran on a remembered row) it also requires the same referrer and none of each
 * player's batch ids stored yet. Returns the rows it updated; a player missing there was not written.
 */
const swapGroup = async (db: Db, plan: GroupPlan, nowMs: number, cachedBatchIds?: ReadonlyMap<number, readonly string[]>): Promise<UserRow[]> => {
  const c = [...plan.changed.values()];
  const o = c.map((r) => plan.before.get(r.id)!);
  const { newBatches, ledger } = plan;
  const cached = cachedBatchIds !== undefined;
  const params: unknown[] = [
    c.map((r) => r.id), c.map((r) => r.total_earn), c.map((r) => r.total_click), c.map((r) => r.energy), c.map((r) => r.energy_at_ms), c.map((r) => r.tap_clock_ms),
    o.map((r) => r.total_earn), o.map((r) => r.total_click), o.map((r) => r.energy), o.map((r) => r.energy_at_ms), o.map((r) => r.tap_clock_ms), o.map((r) => r.energy_level), o.map((r) => r.finger_level),
    nowMs,
    newBatches.map((b) => b.userId), newBatches.map((b) => b.batchId), newBatches.map((b) => b.requested), newBatches.map((b) => b.accepted),
    ledger.map((l) => l.userId), ledger.map((l) => l.amount), ledger.map((l) => l.reference),
  ];
  // Each player's batchIds of this group, comma-joined (the batchId pattern has no comma).
  if (cached) params.push(o.map((r) => r.referred_by), c.map((r) => cachedBatchIds.get(r.id)?.join(',') ?? ''));
  const cachedColumns = cached ? ', $22::bigint[], $23::text[]' : '';
  const cachedNames = cached ? ', o_ref, bids' : '';
  const cachedGuards = cached
    ? `
         AND u.referred_by IS NOT DISTINCT FROM v.o_ref
         AND NOT EXISTS (SELECT 1 FROM click_batches s WHERE s.user_id = v.id AND s.batch_id = ANY(string_to_array(v.bids, ',')))`
    : '';
  const batchesOf = cached ? 'b.u IN (SELECT id FROM upd)' : 'b.u NOT IN (SELECT id FROM v) OR b.u IN (SELECT id FROM upd)';
  const result = await db.query<UserRow>(
    `WITH v AS (
       SELECT * FROM unnest($1::bigint[], $2::numeric[], $3::bigint[], $4::int[], $5::bigint[], $6::bigint[],
                            $7::numeric[], $8::bigint[], $9::int[], $10::bigint[], $11::bigint[], $12::int[], $13::int[]${cachedColumns})
         AS v(id, earn, clicks, energy, eat, tc, o_earn, o_clicks, o_energy, o_eat, o_tc, o_el, o_fl${cachedNames})
     ), upd AS (
       UPDATE users u SET total_earn = v.earn, total_click = v.clicks, energy = v.energy, energy_at_ms = v.eat, tap_clock_ms = v.tc
       FROM v WHERE u.id = v.id AND u.total_earn = v.o_earn AND u.total_click = v.o_clicks AND u.energy = v.o_energy
         AND u.energy_at_ms = v.o_eat AND u.tap_clock_ms = v.o_tc AND u.energy_level = v.o_el AND u.finger_level = v.o_fl${cachedGuards}
       RETURNING u.*
     ), bat AS (
       INSERT INTO click_batches (user_id, batch_id, requested, accepted, created_at_ms)
       SELECT b.u, b.id, b.req, b.acc, $14::bigint FROM unnest($15::bigint[], $16::text[], $17::int[], $18::int[]) AS b(u, id, req, acc)
       WHERE ${batchesOf}
     ), led AS (
       INSERT INTO ledger (user_id, currency, amount, kind, reference, created_at_ms)
       SELECT l.u, 'DOLLAR', l.a, 'click', l.r, $14::bigint FROM unnest($19::bigint[], $20::numeric[], $21::text[]) AS l(u, a, r)
       WHERE l.u IN (SELECT id FROM upd)
     ) SELECT * FROM upd`,
    params,
  );
  return result.rows;
};

/**
 * The same group in two autocommitted statements and no row locks: a plain read, then one
 * statement that updates each changed player only if every column the rule read is unchanged
 * (compare-and-swap) and inserts the batchIds and ledger rows of the players it updated. Players
 * whose row moved in between (another route wrote it) go through the locked `applyGroup`; so does
 * the whole group when a click would release an invite bonus, or when the statement fails.
 */
export const applyGroupUnlocked = async (
  db: Db,
  group: readonly Omit<Pending, 'resolve' | 'reject'>[],
  now: () => number,
): Promise<ClickAnswer[]> => {
  const locked = (g: readonly Omit<Pending, 'resolve' | 'reject'>[]) => transaction(db, (tx) => applyGroup(tx, g, now));
  const read = await readGroup(db, group, false);
  // Read after the rows: a write committed before our read had an earlier clock.
  const nowMs = now();
  const plan = planGroup(read, group, nowMs);
  if (crossesInviteThreshold(plan)) return locked(group);
  if (plan.changed.size === 0 && plan.newBatches.length === 0) return answersOf(plan, (id) => read.rows.get(id)!, nowMs);

  const c = [...plan.changed.values()];
  let updated: UserRow[];
  try {
    updated = await swapGroup(db, plan, nowMs);
  } catch {
    // The statement is atomic: if it committed before the error reached us, the locked path
    // finds its batchIds and answers them as replays with the first answer's count.
    return locked(group);
  }
  const fresh = new Map(updated.map((r) => [r.id, r]));
  const lost = new Set(c.filter((r) => !fresh.has(r.id)).map((r) => r.id));
  const answers = answersOf(plan, (id) => fresh.get(id) ?? read.rows.get(id)!, nowMs);
  if (lost.size === 0) return answers;
  // Players whose row another route changed since our read: nothing of theirs was written; run them again, locked.
  const redo = group.map((p, i) => ({ p, i })).filter(({ p }) => lost.has(p.userId));
  const again = await locked(redo.map(({ p }) => p));
  redo.forEach(({ i }, k) => (answers[i] = again[k]!));
  return answers;
};

type Click = Omit<Pending, 'resolve' | 'reject'>;

/**
 * One round trip for players whose row we know from our last group: the rule runs on the cached
 * row and one statement swaps in the result only if the stored row still has every value the rule
 * read (and the same referrer) and none of the batchIds is stored yet. Anyone else, anyone the
 * swap refused, and players whose taps were all refused (their answer needs a fresh row) take
 * `applyGroupUnlocked`. Updates `cache` with every answer's row.
 */
export const applyGroupCached = async (db: Db, group: readonly Click[], now: () => number, cache: RowCache): Promise<ClickAnswer[]> => {
  const answers: ClickAnswer[] = new Array(group.length);
  const indexed = group.map((p, i) => ({ p, i }));
  const nowMs = now();
  const planFor = (part: typeof indexed) => {
    const rows = new Map<number, UserRow>();
    for (const { p } of part) if (!rows.has(p.userId)) rows.set(p.userId, { ...cache.get(p.userId)! });
    return planGroup({ rows, seen: new Map() }, part.map(({ p }) => p), nowMs);
  };
  let fast = indexed.filter(({ p }) => cache.get(p.userId) !== undefined);
  let plan = planFor(fast);
  const idle = new Set(fast.filter(({ p }) => !plan.changed.has(p.userId)).map(({ p }) => p.userId));
  if (idle.size > 0) {
    fast = fast.filter(({ p }) => !idle.has(p.userId));
    plan = planFor(fast);
  }
  if (crossesInviteThreshold(plan)) {
    fast = [];
    plan = planFor(fast);
  }
  const fastIds = new Set(fast.map(({ p }) => p.userId));
  const slowPart = indexed.filter(({ p }) => !fastIds.has(p.userId));

  const viaRead = async (part: typeof indexed) => {
    if (part.length === 0) return;
    const out = await applyGroupUnlocked(db, part.map(({ p }) => p), now);
    part.forEach(({ i }, k) => (answers[i] = out[k]!));
  };
  const swap = async () => {
    if (fast.length === 0) return;
    const bids = new Map<number, string[]>();
    for (const b of plan.newBatches) bids.set(b.userId, [...(bids.get(b.userId) ?? []), b.batchId]);
    let updated: UserRow[];
    try {
      updated = await swapGroup(db, plan, nowMs, bids);
    } catch {
      // Atomic: if it did commit, the read path finds the batchIds and answers them as replays.
      return viaRead(fast);
    }
    const fresh = new Map(updated.map((r) => [r.id, r]));
    // plan.results is in the order of `fast`.
    fast.forEach(({ p, i }, k) => {
      const row = fresh.get(p.userId);
      if (row !== undefined) answers[i] = { accepted: plan.results[k]!.accepted, replay: plan.results[k]!.replay, row: { ...row }, nowMs };
    });
    await viaRead(fast.filter(({ p }) => !fresh.has(p.userId)));
  };
  await Promise.all([swap(), viaRead(slowPart)]);
  for (const a of group.map((p, i) => ({ p, a: answers[i]! }))) cache.set(a.p.userId, a.a.row);
  return answers;
};

/**
 * Deletes batch ids older than `keepMs` (a replay after that is treated as a new batch, still
 * capped by energy and the human-rate allowance). For a periodic job; returns the rows deleted.
 */
export const pruneClickBatches = async (db: Db, nowMs: number, keepMs = 7 * 24 * 3_600_000): Promise<number> =>
  (await db.query('DELETE FROM click_batches WHERE created_at_ms < $1', [nowMs - keepMs])).rowCount;
