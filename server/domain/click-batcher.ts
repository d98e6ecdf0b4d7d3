import { applyTaps } from '../../engine/clicks.ts';
import { economy } from '../../engine/economy.ts';
import { money, toWire } from '../../engine/money.ts';
import type { Clock } from '../clock.ts';
import type { Db, Queryable } from '../db/db.ts';
import { transaction } from '../db/retry.ts';
import { appendLedger, settleInviteBonus } from './ledger.ts';
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
  /** Groups in flight at once (PostgreSQL can overlap them; PGlite runs one at a time anyway). */
  concurrency?: number;
}

/**
 * Group commit for POST /click: concurrent batches are applied in one transaction with one
 * UPDATE for all their players, and each request is answered only after its group committed.
 * Rows are locked in id order (FOR UPDATE), so groups and other routes never lose an update.
 */
export class ClickBatcher {
  private queue: Pending[] = [];
  private inFlight = 0;
  private readonly maxGroup: number;
  private readonly concurrency: number;
  /** Users in groups now committing: their next requests wait for the following group. */
  private readonly busy = new Set<number>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    opts: ClickBatcherOptions = {},
  ) {
    this.maxGroup = opts.maxGroup ?? 1_000;
    this.concurrency = opts.concurrency ?? (db.kind === 'postgres' ? 3 : 1);
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
    const nowMs = this.clock.now();
    try {
      const answers = await transaction(this.db, (tx) => applyGroup(tx, group, nowMs));
      group.forEach((p, i) => p.resolve(answers[i]!));
    } catch (err) {
      for (const p of group) p.reject(err);
    }
  }
}

/** Applies one group of click batches in the caller's transaction; answers in request order. */
export const applyGroup = async (tx: Queryable, group: readonly Omit<Pending, 'resolve' | 'reject'>[], nowMs: number): Promise<ClickAnswer[]> => {
  const ids = [...new Set(group.map((p) => p.userId))].sort((a, b) => a - b);
  const locked = await tx.query<UserRow>('SELECT * FROM users WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE', [ids]);
  const rows = new Map(locked.rows.map((r) => [r.id, r]));

  const withBatch = group.filter((p) => p.batchId !== null);
  const seen = new Map<string, number>();
  if (withBatch.length > 0) {
    const prior = await tx.query<{ user_id: number; batch_id: string; accepted: number }>(
      `SELECT b.user_id, b.batch_id, b.accepted FROM click_batches b
       JOIN unnest($1::bigint[], $2::text[]) AS q(u, k) ON b.user_id = q.u AND b.batch_id = q.k`,
      [withBatch.map((p) => p.userId), withBatch.map((p) => p.batchId)],
    );
    for (const b of prior.rows) seen.set(`${b.user_id}:${b.batch_id}`, b.accepted);
  }

  const before = new Map([...rows].map(([id, r]) => [id, r.total_earn]));
  const changed = new Set<number>();
  const newBatches: { userId: number; batchId: string; requested: number; accepted: number }[] = [];
  const ledger: { userId: number; currency: 'DOLLAR'; amount: string; kind: string; reference: string | null }[] = [];
  const results: { accepted: number; replay: boolean; userId: number }[] = [];

  for (const p of group) {
    const row = rows.get(p.userId);
    if (row === undefined) throw new Error(`click for unknown user ${p.userId}`);
    const key = p.batchId === null ? null : `${p.userId}:${p.batchId}`;
    const first = key === null ? undefined : seen.get(key);
    if (first !== undefined) {
      results.push({ accepted: first, replay: true, userId: p.userId });
      continue;
    }
    const out = applyTaps(
      { energy: row.energy, energyAtMs: row.energy_at_ms, energyLevel: row.energy_level, fingerLevel: row.finger_level, tapClockMs: row.tap_clock_ms },
      p.click,
      nowMs,
    );
    if (out.accepted > 0) {
      row.energy = out.energy;
      row.energy_at_ms = out.energyAtMs;
      row.tap_clock_ms = out.tapClockMs;
      row.total_click += out.accepted;
      row.total_earn = toWire(money(row.total_earn).plus(out.earned));
      changed.add(p.userId);
      ledger.push({ userId: p.userId, currency: 'DOLLAR', amount: String(out.earned), kind: 'click', reference: p.batchId });
    }
    if (key !== null) {
      seen.set(key, out.accepted);
      newBatches.push({ userId: p.userId, batchId: p.batchId!, requested: p.click, accepted: out.accepted });
    }
    results.push({ accepted: out.accepted, replay: false, userId: p.userId });
  }

  if (changed.size > 0) {
    const c = [...changed].map((id) => rows.get(id)!);
    await tx.query(
      `UPDATE users u SET total_earn = v.earn, total_click = v.clicks, energy = v.energy, energy_at_ms = v.eat, tap_clock_ms = v.tc
       FROM unnest($1::bigint[], $2::numeric[], $3::bigint[], $4::int[], $5::bigint[], $6::bigint[]) AS v(id, earn, clicks, energy, eat, tc)
       WHERE u.id = v.id`,
      [c.map((r) => r.id), c.map((r) => r.total_earn), c.map((r) => r.total_click), c.map((r) => r.energy), c.map((r) => r.energy_at_ms), c.map((r) => r.tap_clock_ms)],
    );
  }
  if (newBatches.length > 0) {
    await tx.query(
      `INSERT INTO click_batches (user_id, batch_id, requested, accepted, created_at_ms)
       SELECT u, k, r, a, $5 FROM unnest($1::bigint[], $2::text[], $3::int[], $4::int[]) AS t(u, k, r, a)`,
      [newBatches.map((b) => b.userId), newBatches.map((b) => b.batchId), newBatches.map((b) => b.requested), newBatches.map((b) => b.accepted), nowMs],
    );
  }
  await appendLedger(tx, ledger, nowMs);

  // A friend whose clicks take totalEarn to $100 releases the pending invite bonus (rare).
  const threshold = money(economy.pendingFriendThresholdDollars);
  for (const id of changed) {
    const row = rows.get(id)!;
    if (row.referred_by !== null && money(before.get(id)!).lt(threshold) && money(row.total_earn).gte(threshold)) {
      if (await settleInviteBonus(tx, id, nowMs)) {
        const fresh = await tx.query<UserRow>('SELECT * FROM users WHERE id = $1', [id]);
        rows.set(id, fresh.rows[0]!);
      }
    }
  }

  return results.map((r) => ({ accepted: r.accepted, replay: r.replay, row: { ...rows.get(r.userId)! }, nowMs }));
};
