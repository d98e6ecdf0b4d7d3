import type { IdGenerator, PendingTapsRecord, TapBatch } from './ports.ts';

/**
 * Taps applied on the device and not yet acknowledged by the server: a count not yet cut into a
 * batch, then a queue of batches in send order. A batch keeps its batchId and seq for life, so a
 * retry is the same request and the server credits it at most once (docs/rules.md §4).
 */
export class PendingTaps {
  private unsentTaps = 0;
  /** The device's clock at the first unsent tap (null when unknown). */
  private firstUnsentMs: number | null = null;
  private queue: TapBatch[] = [];
  private nextSeq = 1;
  /** The id and seq promised to the unsent taps by a saved record (see PendingTapsRecord.next). */
  private reserved: { batchId: string; seq: number } | null = null;

  /** Every tap not yet acknowledged: the unsent ones and those in batches. */
  get count(): number {
    let total = this.unsentTaps;
    for (const b of this.queue) total += b.click;
    return total;
  }

  get unsent(): number {
    return this.unsentTaps;
  }

  /** The batch to send next (the oldest one), if any. */
  get head(): TapBatch | undefined {
    return this.queue[0];
  }

  get batches(): readonly TapBatch[] {
    return this.queue;
  }

  /** Records `n` taps applied on the device at `atMs` of its clock. */
  add(n: number, atMs?: number): void {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`tap count must be a whole number ≥ 0, got ${n}`);
    if (this.unsentTaps === 0 && n > 0) this.firstUnsentMs = atMs === undefined ? null : Math.floor(atMs);
    this.unsentTaps += n;
  }

  /** Cuts the unsent taps into a new batch at the end of the queue; null when there are none. */
  cut(newId: IdGenerator): TapBatch | null {
    if (this.unsentTaps === 0) return null;
    const { batchId, seq } = this.reserved ?? { batchId: newId(), seq: this.nextSeq++ };
    const batch: TapBatch = { batchId, seq, click: this.unsentTaps, ...(this.firstUnsentMs !== null && this.firstUnsentMs >= 0 ? { firstTapMs: this.firstUnsentMs } : {}) };
    this.reserved = null;
    this.firstUnsentMs = null;
    this.unsentTaps = 0;
    this.queue.push(batch);
    return batch;
  }

  /** Removes an acknowledged (or definitively refused) batch; false when it was not queued. */
  settle(batchId: string): boolean {
    const index = this.queue.findIndex((b) => b.batchId === batchId);
    if (index < 0) return false;
    this.queue.splice(index, 1);
    return true;
  }

  /**
   * What to persist so the taps survive a reload. With `newId`, unsent taps get the batchId and seq
   * they will be cut under, saved with them, so a batch sent before its record landed is not sent
   * again under a new id after a reload (which would count its taps twice).
   */
  record(newId?: IdGenerator): PendingTapsRecord {
    const record: PendingTapsRecord = { batches: this.queue.map((b) => ({ ...b })), unsent: this.unsentTaps };
    if (this.unsentTaps > 0 && newId) this.reserved ??= { batchId: newId(), seq: this.nextSeq++ };
    if (this.unsentTaps > 0 && this.reserved) record.next = { ...this.reserved };
    return record;
  }

  /** Adds what a previous session left (its batches keep their ids; new seqs continue after them). */
  restore(record: PendingTapsRecord | null): void {
    // The store may hold anything (another app version, a damaged write): an unreadable record must
    // not stop the game from starting, so only its well-formed parts are taken.
    if (typeof record !== 'object' || record === null) return;
    for (const b of Array.isArray(record.batches) ? record.batches : []) {
      if (!isBatch(b) || this.queue.some((q) => q.batchId === b.batchId)) continue;
      this.queue.push({ batchId: b.batchId, seq: b.seq, click: b.click, ...(Number.isSafeInteger(b.firstTapMs) && b.firstTapMs! >= 0 ? { firstTapMs: b.firstTapMs } : {}) });
      this.nextSeq = Math.max(this.nextSeq, b.seq + 1);
    }
    if (Number.isInteger(record.unsent) && record.unsent > 0) {
      const next = record.next;
      const reusable =
        this.unsentTaps === 0 &&
        this.reserved === null &&
        typeof next === 'object' &&
        next !== null &&
        typeof next.batchId === 'string' &&
        Number.isInteger(next.seq) &&
        !this.queue.some((q) => q.batchId === next.batchId);
      if (reusable) {
        this.reserved = { batchId: next.batchId, seq: next.seq };
        this.nextSeq = Math.max(this.nextSeq, next.seq + 1);
      }
      this.unsentTaps += record.unsent;
    }
  }
}

const isBatch = (b: unknown): b is TapBatch => {
  if (typeof b !== 'object' || b === null) return false;
  const { batchId, seq, click } = b as Record<string, unknown>;
  return typeof batchId === 'string' && Number.isInteger(seq) && Number.isInteger(click) && (click as number) > 0;
};

/**
 * One record from several a device kept in different stores (DeviceStorage and web storage, after
 * a session that fell back from one to the other; docs/engine.md "Persistence"). Each batch is
 * kept once, under its own batchId. Unsent taps a record promised an id to (`next`) become a batch
 * under that id, unless a record already holds that batch (they were cut into it, so they are in
 * it); two records promising the same id keep the larger count, which includes the smaller. Any
 * taps left without an id stay unsent, to be cut under a new one. Every batch is then sent under
 * the id it may already have been sent with, which the server credits at most once.
 */
export const mergeRecords = (records: readonly (PendingTapsRecord | null)[]): PendingTapsRecord | null => {
  const present = records.filter((r): r is PendingTapsRecord => typeof r === 'object' && r !== null);
  if (present.length <= 1) return present[0] ?? null;
  const batches = new Map<string, TapBatch>();
  for (const record of present) {
    for (const b of Array.isArray(record.batches) ? record.batches : []) {
      if (isBatch(b) && !batches.has(b.batchId)) batches.set(b.batchId, { batchId: b.batchId, seq: b.seq, click: b.click });
    }
  }
  const promised = new Map<string, TapBatch>();
  let unsent = 0;
  for (const record of present) {
    if (!Number.isInteger(record.unsent) || record.unsent <= 0) continue;
    const next = record.next;
    if (typeof next !== 'object' || next === null || typeof next.batchId !== 'string' || !Number.isInteger(next.seq)) {
      unsent += record.unsent;
      continue;
    }
    if (batches.has(next.batchId)) continue;
    const click = Math.max(promised.get(next.batchId)?.click ?? 0, record.unsent);
    promised.set(next.batchId, { batchId: next.batchId, seq: next.seq, click });
  }
  return { batches: [...batches.values(), ...promised.values()], unsent };
};
