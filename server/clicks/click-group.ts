import { applyTaps } from '../../engine/rules/clicks.ts';
import { BoundedMap } from '../core/bounded-map.ts';
import type { Db, Queryable } from '../core/db/db.ts';
import { CommitUnknown, isUnavailable, provenNotApplied } from '../core/db/errors.ts';
import { retrying } from '../core/db/retry.ts';
import { transaction } from '../core/db/transaction.ts';
import { traced } from '../core/tracing.ts';
import { settleInviteBonus } from '../players/exports.ts';
import { movedSince, planGroup, splitPlan, type Entry, type GroupPlan, type TapRule } from './click-plan.ts';
import { readGroup, writeGroup, type Click, type GroupRead, type VersionedRow } from './click-sql.ts';

// One group of click batches, from the rows to the answers (docs/storage.md, "Click groups"):
//   applyClicks: cached players are planned on their cached row; the others are read, then planned.
//   commit: each plan's players crossing $100 go to applyLocked, the rest to writePlain.
//   writePlain: the one write statement; the players it refused (row moved, batchId already stored)
//     go to applyLocked with their plan.
//   applyLocked: rows locked; a plan whose rows did not move is written as it is, and only the
//     players whose rows moved are planned again.
// So the rule runs once for each batch, twice for one whose row is proven stale.
// Each write fails on its own: a batch is answered when its write committed, refused with that
// write's error otherwise — `outcomeUnknown` (CommitUnknown) when a write of it may have committed
// and no later read proved which (docs/faults.md "An answer lost after the commit").

/** What one POST /click gets back: the accepted taps and the player's row after its group committed. */
export interface ClickAnswer {
  accepted: number;
  /** True when the batchId was seen before: the first answer's count, nothing credited again. */
  replay: boolean;
  row: VersionedRow;
  nowMs: number;
}

/** One group in progress: what its steps share. */
interface GroupContext {
  db: Db;
  now: () => number;
  rule: TapRule;
  answers: ClickAnswer[];
  /** The batches (by place in the group) whose write failed, with the error each is answered. */
  failures: Map<number, unknown>;
}

/**
 * Some batches of a group were not written: `answers` holds the others' answers (committed), and
 * `failures` the error of each batch that failed, by its place in the group.
 */
export class GroupFailure extends Error {
  constructor(
    readonly answers: readonly (ClickAnswer | undefined)[],
    readonly failures: ReadonlyMap<number, unknown>,
  ) {
    super(`click group: ${failures.size} of ${answers.length} batches failed`);
    this.name = 'GroupFailure';
  }
}

/** Gives every batch of `entries` not answered yet the error `err`. */
const fail = (ctx: GroupContext, entries: readonly Entry[], err: unknown): void => {
  for (const { i } of entries) if (ctx.answers[i] === undefined && !ctx.failures.has(i)) ctx.failures.set(i, err);
};

const entriesOf = (plan: GroupPlan): Entry[] => plan.results.map((r) => r.entry);

/** `err` as the failure of a write after one that may have committed: its outcome is unknown. */
const unknownOutcome = (err: unknown): CommitUnknown => (err instanceof CommitUnknown ? err : new CommitUnknown(err));

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
 * Players whose row `cache` holds are planned on that row at once (the write checks it is still the
 * stored version); the others are read, in parallel with that write, and planned on what was read.
 * Updates `cache` with every answer's row. `rule` is the tap rule (tests count its calls). Throws
 * `GroupFailure`, with the answers of the batches that were written, when some were not.
 */
export const applyClicks = async (db: Db, group: readonly Click[], now: () => number, cache: RowCache, rule: TapRule = applyTaps): Promise<ClickAnswer[]> => {
  const ctx: GroupContext = { db, now, rule, answers: new Array<ClickAnswer>(group.length), failures: new Map() };
  const cachedRead: GroupRead = { rows: new Map(), seen: new Map() };
  const cached: Entry[] = [];
  const uncached: Entry[] = [];
  group.forEach((batch, i) => {
    const row = cache.get(batch.userId);
    if (row === undefined) uncached.push({ batch, i });
    else {
      cachedRead.rows.set(batch.userId, row);
      cached.push({ batch, i });
    }
  });
  await Promise.all([
    cached.length > 0 ? commit(ctx, planGroup(cachedRead, cached, now(), rule)).catch((err: unknown) => fail(ctx, cached, err)) : undefined,
    readAndCommit(ctx, uncached).catch((err: unknown) => fail(ctx, uncached, err)),
  ]);
  // A failed batch's player is read again next time: their stored row is not known.
  const unknown = new Set([...ctx.failures.keys()].map((i) => group[i]!.userId));
  for (const id of unknown) cache.delete(id);
  group.forEach((batch, i) => {
    const a = ctx.answers[i];
    if (a !== undefined && !unknown.has(batch.userId)) cache.keep(batch.userId, a.row);
  });
  if (ctx.failures.size > 0) throw new GroupFailure(ctx.answers, ctx.failures);
  return ctx.answers;
};

const readAndCommit = async (ctx: GroupContext, entries: Entry[]): Promise<void> => {
  if (entries.length === 0) return;
  const read = await readGroup(ctx.db, entries.map((e) => e.batch), false);
  // The time is read after the rows: a write committed before our read had an earlier clock (an
  // earlier time would move the energy clock back, engine/rules/energy.ts spendEnergy).
  await commit(ctx, planGroup(read, entries, ctx.now(), ctx.rule));
};

/** Players whose clicks cross $100 are written locked, with their invite bonus; the rest by the one statement. */
const commit = async (ctx: GroupContext, plan: GroupPlan): Promise<void> => {
  if (plan.crossing.size === 0) return writePlain(ctx, plan);
  const [crossing, rest] = splitPlan(plan, (id) => plan.crossing.has(id));
  await applyLocked(ctx, crossing);
  await writePlain(ctx, rest);
};

/**
 * Writes `plan` by the one autocommitted statement. Run again as it is, by the one retry policy
 * (server/core/db/retry.ts), when PostgreSQL aborted it (40P01, 40001) or the connection failed under it: safe, because a run after one that did commit
 * finds its rows at other versions (or its batchIds stored) and refuses them, and the locked path
 * then reads what is stored and answers each batchId found there as a replay. Players the write
 * refused, or the whole plan when a batchId of it is already stored (click_batches' primary key
 * fails the statement), go to `applyLocked` with their plan. A write that failed is answered with
 * its error, `outcomeUnknown` when an attempt may have committed.
 */
const writePlain = async (ctx: GroupContext, plan: GroupPlan): Promise<void> => {
  if (plan.results.length === 0) return;
  const written = await writeOrDuplicate(ctx.db, plan);
  if ('failed' in written) return fail(ctx, entriesOf(plan), written.failed);
  if ('duplicate' in written) return applyLocked(ctx, plan, written.unsure);
  if (written.versions.size === plan.rows.size) return answer(ctx, plan, written.versions);
  const [done, refused] = splitPlan(plan, (id) => written.versions.has(id));
  answer(ctx, done, written.versions);
  await applyLocked(ctx, refused, written.unsure);
};

/**
 * The plain write's outcome: the versions written, the plan's batchIds found stored, or its failure.
 * `unsure`: an attempt before may have committed (its answer was lost), so what the plan refused
 * must be read back before it is answered (`applyLocked` does), and a failure is `outcomeUnknown`.
 */
type PlainWrite = { versions: Map<number, string>; unsure: boolean } | { duplicate: true; unsure: boolean } | { failed: unknown };

const writeOrDuplicate = async (db: Db, plan: GroupPlan): Promise<PlainWrite> => {
  let unsure = false;
  try {
    const versions = await retrying(
      () => traced('click group commit', () => writeGroup(db, plan, plan.nowMs), { 'money.click.batches': plan.results.length }),
      (err) => {
        // Failed without PostgreSQL's ERROR once the statement left (a read timeout, a reset): it may have committed.
        if (isUnavailable(err) && !provenNotApplied(err)) unsure = true;
        // A batch without a batchId cannot be recognised once stored: after a write that may have
        // committed, writing it again could count it twice, so its outcome stays unknown.
        return unsure && plan.batches.some((b) => b.batchId === null) ? 'stop' : 'go on';
      },
    );
    return { versions, unsure };
  } catch (err) {
    const e = err as { code?: unknown; table?: unknown } | null;
    if (e?.code === '23505' && e.table === 'click_batches') return { duplicate: true, unsure };
    return { failed: unsure ? unknownOutcome(err) : err };
  }
};

/**
 * The locked path: `plan`'s rows read FOR UPDATE (id order) in one transaction. Players whose
 * locked row is the version their plan read, with no batchId stored since, are written as planned;
 * only the others are planned again, on the locked rows. Then the pending invite bonus of every
 * player whose clicks cross $100, in the same transaction as those clicks. The plans are kept
 * outside the transaction's callback, which runs again after a deadlock: that run plans again
 * only what moved since the previous run's read, and nothing is answered before the commit.
 * When it fails, its batches are answered with the error (`outcomeUnknown` when `unsure`: a plain
 * write of theirs before may have committed).
 */
const applyLocked = async (ctx: GroupContext, plan: GroupPlan, unsure = false): Promise<void> => {
  if (plan.results.length === 0) return;
  try {
    await writeLocked(ctx, plan);
  } catch (err) {
    // A COMMIT whose answer was lost is CommitUnknown already; after a plain write that may have
    // committed, any failure here leaves the outcome unknown too.
    fail(ctx, entriesOf(plan), unsure ? unknownOutcome(err) : err);
  }
};

const writeLocked = async (ctx: GroupContext, plan: GroupPlan): Promise<void> => {
  let plans = [plan];
  const done = await transaction(ctx.db, async (tx) => {
    const read = await readGroup(tx, plans.flatMap((p) => p.results.map((r) => r.entry.batch)), true);
    plans = replanMoved(ctx, plans, read);
    const versions = new Map<number, string>();
    const settled = new Map<number, VersionedRow>();
    for (const p of plans) {
      const written = await writeGroup(tx, p, p.nowMs);
      // Rows are locked, so every player is written (a batchId another process stored fails the statement instead).
      if (written.size < p.rows.size) throw new Error('click group: a locked row was not written');
      for (const [id, version] of written) versions.set(id, version);
      for (const id of p.crossing) if (await settleInviteBonus(tx, id, p.nowMs)) settled.set(id, await reread(tx, id));
    }
    return { versions, settled };
  });
  for (const p of plans) answer(ctx, p, done.versions, done.settled);
};

/** `plans` with the players whose locked row moved planned again, once, on `read`. */
const replanMoved = (ctx: GroupContext, plans: GroupPlan[], read: GroupRead): GroupPlan[] => {
  const kept: GroupPlan[] = [];
  const again: Entry[] = [];
  for (const p of plans) {
    const moved = movedSince(p, read);
    if (moved.size === 0) {
      kept.push(p);
      continue;
    }
    const [stale, fresh] = splitPlan(p, (id) => moved.has(id));
    if (fresh.results.length > 0) kept.push(fresh);
    again.push(...stale.results.map((r) => r.entry));
  }
  // The time is read once the rows are locked, so it is never earlier than a write we waited for.
  if (again.length > 0) kept.push(planGroup(read, again, ctx.now(), ctx.rule));
  return kept;
};

const reread = async (q: Queryable, id: number): Promise<VersionedRow> =>
  (await q.query<VersionedRow>('SELECT u.*, u.xmin::text AS version FROM users u WHERE u.id = $1', [id])).rows[0]!;

/**
 * Answers `plan`'s batches once its write committed: each player's row at the version written
 * (or as the invite bonus left it). A player's answers share their row: nothing changes it later.
 */
const answer = (ctx: GroupContext, plan: GroupPlan, versions: ReadonlyMap<number, string>, settled?: ReadonlyMap<number, VersionedRow>): void => {
  for (const [id, row] of plan.rows) {
    const after = settled?.get(id);
    if (after !== undefined) plan.rows.set(id, after);
    else row.version = versions.get(id)!;
  }
  for (const { entry, accepted, replay } of plan.results) ctx.answers[entry.i] = { accepted, replay, row: plan.rows.get(entry.batch.userId)!, nowMs: plan.nowMs };
};
