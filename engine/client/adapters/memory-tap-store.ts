import type { PendingTapsRecord, TapStore } from '../ports.ts';

/**
 * Keeps unacknowledged taps in memory: the fallback where IndexedDB is missing (Node workers,
 * private modes that refuse storage). It survives an engine restart, not a page reload.
 */
export class MemoryTapStore implements TapStore {
  record: PendingTapsRecord | null = null;
  saves = 0;

  load(): Promise<PendingTapsRecord | null> {
    return Promise.resolve(this.record ? structuredClone(this.record) : null);
  }

  save(record: PendingTapsRecord): Promise<void> {
    this.saves++;
    this.record = structuredClone(record);
    return Promise.resolve();
  }
}
