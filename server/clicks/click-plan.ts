import { applyTaps } from '../../engine/rules/clicks.ts';
import { money, toWire } from '../../engine/rules/money.ts';
import { crossesInviteThreshold } from '../players/exports.ts';
import type { Click, GroupRead, GroupWrite, VersionedRow } from './click-sql.ts';

/** A batch of a group and its place there: answers go back in request order. */
export interface Entry {
  batch: Click;
  i: number;
}

/** The tap rule a plan runs: `applyTaps` (engine/rules/clicks.ts); a test may pass one that counts its calls. */
export type TapRule = typeof applyTaps;

/**
 * The engine rule run once over one read of a group's players (docs/storage.md, "Click groups"):
 * each batch's answer, the write, and who crosses $100. Players are independent in a plan, so the
 * plan of some of them is this plan filtered by player (`splitPlan`), never the rule run again.
 */
export interface GroupPlan extends GroupWrite {
  /** When the rule ran (after the read); the write stores it as the batches' and ledger rows' time. */
  nowMs: number;
  /** Each batch's answer, in request order: the taps accepted, or the first answer's for a replay. */
  results: { entry: Entry; accepted: number; replay: boolean }[];
  /** Every player's row after the plan (changed or not); `version` is the one read until written. */
  rows: Map<number, VersionedRow>;
  /** The batchIds the read found stored (`${userId}:${batchId}` → accepted); none for a cached row. */
  seen: ReadonlyMap<string, number>;
  /** Changed players whose totalEarn crosses the invite-bonus threshold (computed once, here). */
  crossing: Set<number>;
}

/** Runs the rule over `entries` in request order, on copies of `read.rows`, at `nowMs`. The only caller of the tap rule. */
export const planGroup = (read: GroupRead, entries: readonly Entry[], nowMs: number, rule: TapRule = applyTaps): GroupPlan => {
  const rows = new Map<number, VersionedRow>();
  const earnBefore = new Map<number, string>();
  const plan: GroupPlan = { nowMs, results: [], rows, seen: read.seen, changed: [], checked: [], batches: [], crossing: new Set() };
  const seen = new Map(read.seen);
  for (const entry of entries) {
    const { userId, batchId, click, clientMs } = entry.batch;
    let row = rows.get(userId);
    if (row === undefined) {
      const stored = read.rows.get(userId);
      if (stored === undefined) throw new Error(`click for unknown user ${userId}`);
      rows.set(userId, (row = { ...stored }));
    }
    const key = batchId === null ? null : `${userId}:${batchId}`;
    const first = key === null ? undefined : seen.get(key);
    if (first !== undefined) {
      plan.results.push({ entry, accepted: first, replay: true });
      continue;
    }
    const out = rule(
      { energy: row.energy, energyAtMs: row.energy_at_ms, energyLevel: row.energy_level, fingerLevel: row.finger_level, tapClockMs: row.tap_clock_ms, tapBoostUntilMs: row.tap_boost_until_ms ?? 0 },
      click,
      nowMs,
    );
    if (out.accepted > 0) {
      if (!earnBefore.has(userId)) earnBefore.set(userId, row.total_earn);
      row.energy = out.energy;
      row.energy_at_ms = out.energyAtMs;
      row.tap_clock_ms = out.tapClockMs;
      row.total_click += out.accepted;
      // earned is an integer number of dollars (accepted × click value), so this stays exact.
      row.total_earn = toWire(money(row.total_earn).plus(out.earned));
    }
    if (key !== null) seen.set(key, out.accepted);
    if (key !== null || out.accepted > 0) plan.batches.push({ userId, batchId, requested: click, accepted: out.accepted, earned: out.earned, clientMs: clientMs ?? null });
    plan.results.push({ entry, accepted: out.accepted, replay: false });
  }
  for (const [id, row] of rows) {
    const before = earnBefore.get(id);
    if (before === undefined) plan.checked.push(row);
    else {
      plan.changed.push(row);
      if (row.referred_by !== null && crossesInviteThreshold(before, row.total_earn)) plan.crossing.add(id);
    }
  }
  return plan;
};

/** The plan's players for whom `inFirst` holds, and the others: two plans, as if each had been planned alone. */
export const splitPlan = (plan: GroupPlan, inFirst: (userId: number) => boolean): [GroupPlan, GroupPlan] => {
  const part = (side: boolean): GroupPlan => {
    const has = (id: number) => inFirst(id) === side;
    return {
      nowMs: plan.nowMs,
      results: plan.results.filter((r) => has(r.entry.batch.userId)),
      rows: new Map([...plan.rows].filter(([id]) => has(id))),
      seen: plan.seen,
      changed: plan.changed.filter((r) => has(r.id)),
      checked: plan.checked.filter((r) => has(r.id)),
      batches: plan.batches.filter((b) => has(b.userId)),
      crossing: new Set([...plan.crossing].filter(has)),
    };
  };
  return [part(true), part(false)];
};

/**
 * The players `plan` is stale for, by a later read of their rows: their row is another version, or
 * a batchId of theirs is stored that the plan's read did not find (so the plan counted it as new).
 */
export const movedSince = (plan: GroupPlan, read: GroupRead): Set<number> => {
  const moved = new Set<number>();
  for (const [id, row] of plan.rows) if (read.rows.get(id)?.version !== row.version) moved.add(id);
  for (const { entry } of plan.results) {
    const { userId, batchId } = entry.batch;
    const key = `${userId}:${batchId}`;
    if (batchId !== null && read.seen.has(key) !== plan.seen.has(key)) moved.add(userId);
  }
  return moved;
};
