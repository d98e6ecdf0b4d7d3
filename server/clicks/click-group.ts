import { applyTaps } from '../../engine/clicks.ts';
import { money, toWire } from '../../engine/money.ts';
import { BoundedMap } from '../core/bounded-map.ts';
import type { Db, Queryable } from '../core/db/db.ts';
import { transaction } from '../core/db/transaction.ts';
import { readGroup, writeGroup, type Click, type GroupRead, type GroupWrite, type VersionedRow } from './click-sql.ts';
import { crossesInviteThreshold } from '../players/exports.ts';
import { settleInviteBonus } from '../players/exports.ts';

/** What one POST /click gets back: the accepted taps and the player's row after its group committed. */
export interface ClickAnswer {
  accepted: number;
  /** True when the batchId was seen before: the first answer's count, nothing credited again. */
  replay: boolean;
  row: VersionedRow;
  nowMs: number;
}

/** The engine rule run over a group: its answers' counts, its write, and who crosses $100. */
interface GroupPlan extends GroupWrite {
  results: { accepted: number; replay: boolean; userId: number }[];
  /** The state after the group of every player in it (changed or not). */
  rows: Map<number, VersionedRow>;
  /** Changed players whose totalEarn crosses the invite-bonus threshold (computed once, here). */
  crossing: Set<number>;
}

/** Runs the engine rule over a group in request order, on copies of `read.rows`. */
export const planGroup = (read: GroupRead, group: readonly Click[], nowMs: number): GroupPlan => {
  const rows = new Map<number, VersionedRow>();
  const earnBefore = new Map<number, string>();
  const plan: GroupPlan = { results: [], rows, changed: [], batches: [], crossing: new Set() };
  const seen = new Map(read.seen);
  for (const p of group) {
    let row = rows.get(p.userId);
    if (row === undefined) {
      const stored = read.rows.get(p.userId);
      if (stored === undefined) throw new Error(`click for unknown user ${p.userId}`);
      rows.set(p.userId, (row = { ...stored }));
    }
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
      if (!earnBefore.has(p.userId)) earnBefore.set(p.userId, row.total_earn);
      row.energy = out.energy;
      row.energy_at_ms = out.energyAtMs;
      row.tap_clock_ms = out.tapClockMs;
      row.total_click += out.accepted;
      // earned is an integer number of dollars (accepted × click value), so this stays exact.
      row.total_earn = toWire(money(row.total_earn).plus(out.earned));
    }
    if (key !== null) seen.set(key, out.accepted);
    if (key !== null || out.accepted > 0)
      plan.batches.push({ userId: p.userId, batchId: p.batchId, requested: p.click, accepted: out.accepted, earned: out.earned });
    plan.results.push({ accepted: out.accepted, replay: false, userId: p.userId });
  }
  for (const [id, before] of earnBefore) {
    const row = rows.get(id)!;
    plan.changed.push(row);
    if (row.referred_by !== null && crossesInviteThreshold(before, row.total_earn)) plan.crossing.add(id);
  }
  return plan;
};

// A player's answers share their row: nothing changes a row once answered (a plan copies before it mutates).
const answersOf = (plan: GroupPlan, nowMs: number): ClickAnswer[] =>
  plan.results.map((r) => ({ accepted: r.accepted, replay: r.replay, row: plan.rows.get(r.userId)!, nowMs }));

/**
 * The locked path: the group's rows read FOR UPDATE (id order) in one transaction, the rule, the
 * same write as the other paths, then the pending invite bonus of every player whose clicks cross
 * $100, in the same transaction as those clicks. Answers in request order.
 */
export const applyLocked = (db: Db, group: readonly Click[], now: () => number): Promise<ClickAnswer[]> =>
  transaction(db, async (tx) => {
    const read = await readGroup(tx, group, true);
    // The time is read once the rows are locked, so it is never earlier than a write we waited for.
    const nowMs = now();
    const plan = planGroup(read, group, nowMs);
    const written = await writeGroup(tx, plan, nowMs);
    // Rows are locked, so every changed row is written (a duplicate batchId from another process fails the statement instead).
    if (written.size < plan.changed.length) throw new Error('click group: a locked row was not written');
    for (const [id, version] of written) plan.rows.get(id)!.version = version;
    for (const id of plan.crossing) if (await settleInviteBonus(tx, id, nowMs)) plan.rows.set(id, await reread(tx, id));
    return answersOf(plan, nowMs);
  });

const reread = async (q: Queryable, id: number): Promise<VersionedRow> =>
  (await q.query<VersionedRow>('SELECT u.*, u.xmin::text AS version FROM users u WHERE u.id = $1', [id])).rows[0]!;

/** Entries of a group with their place in it. */
type Indexed = { p: Click; i: number }[];

/**
 * Plans `part` on `read`, then writes it in one autocommitted statement. Players whose clicks cross
 * $100 go through `applyLocked`. Players the write refused (their row moved since it was read) go
 * to `retry`; so does the whole part when the statement fails, as it does when a batchId of the part
 * is already stored (the read that follows finds it and answers it as a replay; if a failed
 * statement did commit, the read finds all of its batchIds).
 */
const writePart = async (
  db: Db,
  part: Indexed,
  read: GroupRead,
  nowMs: number,
  ctx: GroupContext,
  retry: (rest: Indexed) => Promise<void>,
  planned?: GroupPlan,
): Promise<void> => {
  if (part.length === 0) return;
  let plan = planned ?? planGroup(read, part.map(({ p }) => p), nowMs);
  const crossing = plan.crossing;
  if (crossing.size > 0) {
    await ctx.locked(part.filter(({ p }) => crossing.has(p.userId)));
    part = part.filter(({ p }) => !crossing.has(p.userId));
    if (part.length === 0) return;
    plan = planGroup(read, part.map(({ p }) => p), nowMs);
  }
  let written: Map<number, string>;
  try {
    written = await writeGroup(db, plan, nowMs);
  } catch {
    return retry(part);
  }
  for (const [id, version] of written) plan.rows.get(id)!.version = version;
  const refused = new Set(plan.changed.filter((r) => !written.has(r.id)).map((r) => r.id));
  const out = answersOf(plan, nowMs);
  part.forEach(({ p, i }, k) => {
    if (!refused.has(p.userId)) ctx.answers[i] = out[k]!;
  });
  if (refused.size > 0) await retry(part.filter(({ p }) => refused.has(p.userId)));
};

interface GroupContext {
  answers: ClickAnswer[];
  locked(part: Indexed): Promise<void>;
}

/** Player rows as our last group left them, bounded (docs/storage.md, "Click groups"). */
export class RowCache extends BoundedMap<number, VersionedRow> {
  /**
   * Records `row` as the player's cached row. A player keeps one cached object, overwritten in
   * place by each group. Caching each answer's row instead put a new object a batch in the cache,
   * living until the player's next batch: it outlived the young generation, so the collector copied
   * and promoted twice the bytes (docs/storage.md, "Click groups"). The cached object is never an
   * answer's row (the plan copies it before the rule runs), so an answer keeps what its group wrote.
   */
  keep(userId: number, row: VersionedRow): void {
    const kept = this.get(userId);
    if (kept === undefined) this.set(userId, { ...row });
    else Object.assign(kept, row);
  }
}

/**
 * Applies one group of click batches; answers in request order, each after its write committed.
 * Players whose row the cache holds (as our last group left it) and whose taps change it: the rule
 * runs on that row and one statement writes them, if the stored row is still that version. The
 * others (not cached, every tap refused, or refused by the write) are read first, in parallel with
 * that write, then written by the same statement. Updates `cache` with every answer's row.
 */
export const applyClicks = async (db: Db, group: readonly Click[], now: () => number, cache: RowCache): Promise<ClickAnswer[]> => {
  const answers: ClickAnswer[] = new Array(group.length);
  const ctx: GroupContext = {
    answers,
    locked: async (part) => {
      if (part.length === 0) return;
      const out = await applyLocked(db, part.map(({ p }) => p), now);
      part.forEach(({ i }, k) => (answers[i] = out[k]!));
    },
  };
  const viaRead = async (part: Indexed) => {
    if (part.length === 0) return;
    const read = await readGroup(db, part.map(({ p }) => p), false);
    // The time is read after the rows: a write committed before our read had an earlier clock.
    await writePart(db, part, read, now(), ctx, ctx.locked);
  };
  const nowMs = now();
  const indexed: Indexed = group.map((p, i) => ({ p, i }));
  const cachedRead: GroupRead = { rows: new Map(), seen: new Map() };
  for (const { p } of indexed) {
    const row = cache.get(p.userId);
    if (row !== undefined) cachedRead.rows.set(p.userId, row);
  }
  // Cached players whose taps change their row; an answer with no change needs a fresh row.
  const cached = indexed.filter(({ p }) => cachedRead.rows.has(p.userId));
  const probe = planGroup(cachedRead, cached.map(({ p }) => p), nowMs);
  const fastIds = new Set(probe.changed.map((r) => r.id));
  const fast = cached.filter(({ p }) => fastIds.has(p.userId));
  await Promise.all([
    // The probe is the fast part's plan when every cached player's row changes (the usual case).
    writePart(db, fast, cachedRead, nowMs, ctx, viaRead, fast.length === cached.length ? probe : undefined),
    viaRead(indexed.filter(({ p }) => !fastIds.has(p.userId))),
  ]);
  for (const { p, i } of indexed) cache.keep(p.userId, answers[i]!.row);
  return answers;
};
