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
    // PGlite runs on this thread: smaller groups keep the event loop answering between them.
    this.maxGroup = opts.maxGroup ?? (db.kind === 'postgres' ? 1_000 : 250);
    this.concurrency = opts.concurrency ?? (db.kind === 'postgres' ? 2 : 1);
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
      const answers = await transaction(this.db, (tx) => applyGroup(tx, group, () => this.clock.now()));
      group.forEach((p, i) => p.resolve(answers[i]!));
    } catch (err) {
      for (const p of group) p.reject(err);
    }
  }
}

/** Applies one group of click batches in the caller's transaction; answers in request order. */
export const applyGroup = async (
  tx: Queryable,
  group: readonly Omit<Pending, 'resolve' | 'reject'>[],
  now: number | (() => number),
): Promise<ClickAnswer[]> => {
  const ids = [...new Set(group.map((p) => p.userId))].sort((a, b) => a - b);
  const withBatch = group.filter((p) => p.batchId !== null);
  // One read: the players' rows, locked in id order, each with the batchIds of this group it already has.
  const locked = await tx.query<UserRow & { seen: Record<string, number> | null }>(
    `SELECT u.*, (SELECT json_object_agg(b.batch_id, b.accepted) FROM click_batches b
                  WHERE b.user_id = u.id AND b.batch_id = ANY($2::text[])) AS seen
     FROM users u WHERE u.id = ANY($1::bigint[]) ORDER BY u.id FOR UPDATE OF u`,
    [ids, [...new Set(withBatch.map((p) => p.batchId!))]],
  );
  // The time is read once the rows are locked, so it is never earlier than a write we waited for.
  const nowMs = typeof now === 'number' ? now : now();
  const rows = new Map<number, UserRow>();
  const seen = new Map<string, number>();
  for (const { seen: prior, ...row } of locked.rows) {
    rows.set(row.id, row);
    for (const [batchId, accepted] of Object.entries(prior ?? {})) seen.set(`${row.id}:${batchId}`, accepted);
  }

  const before = new Map([...rows].map(([id, r]) => [id, r.total_earn]));
  const changed = new Set<number>();
  const newBatches: { userId: number; batchId: string; requested: number; accepted: number }[] = [];
  const ledger: { userId: number; amount: string; reference: string | null }[] = [];
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
      ledger.push({ userId: p.userId, amount: String(out.earned), reference: p.batchId });
    }
    if (key !== null) {
      seen.set(key, out.accepted);
      newBatches.push({ userId: p.userId, batchId: p.batchId!, requested: p.click, accepted: out.accepted });
    }
    results.push({ accepted: out.accepted, replay: false, userId: p.userId });
  }

  // One write: the players' new state, the new batchIds and their ledger rows.
  if (changed.size > 0 || newBatches.length > 0) {
    const c = [...changed].map((id) => rows.get(id)!);
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

/**
 * Deletes batch ids older than `keepMs` (a replay after that is treated as a new batch, still
 * capped by energy and the human-rate allowance). For a periodic job; returns the rows deleted.
 */
export const pruneClickBatches = async (db: Db, nowMs: number, keepMs = 7 * 24 * 3_600_000): Promise<number> =>
  (await db.query('DELETE FROM click_batches WHERE created_at_ms < $1', [nowMs - keepMs])).rowCount;
