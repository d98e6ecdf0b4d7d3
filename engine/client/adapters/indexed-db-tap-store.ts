import type { PendingTapsRecord, TapStore } from '../ports.ts';
import { MemoryTapStore } from './memory-tap-store.ts';

const dbName = 'money-engine';
const storeName = 'pending-taps';

const promised = <T>(request: IDBRequest<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });

/** Unacknowledged taps in IndexedDB, one record per player, so they survive a reload. */
export class IndexedDbTapStore implements TapStore {
  private db: Promise<IDBDatabase> | null = null;

  constructor(
    private readonly key: string,
    private readonly factory: IDBFactory,
  ) {}

  private open(): Promise<IDBDatabase> {
    this.db ??= new Promise((resolve, reject) => {
      const request = this.factory.open(dbName, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(storeName);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB open failed'));
    });
    return this.db;
  }

  async load(): Promise<PendingTapsRecord | null> {
    const db = await this.open();
    const record = await promised(db.transaction(storeName, 'readonly').objectStore(storeName).get(this.key));
    return (record as PendingTapsRecord | undefined) ?? null;
  }

  async save(record: PendingTapsRecord): Promise<void> {
    const db = await this.open();
    const tx = db.transaction(storeName, 'readwrite');
    tx.objectStore(storeName).put(record, this.key);
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB write failed'));
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB write aborted'));
    });
  }
}

/**
 * The player's key in the store: the Telegram user id from the init data, so a second account on
 * the same device never sends the first one's taps.
 */
export const playerKey = (initData: string): string => {
  try {
    const user = JSON.parse(new URLSearchParams(initData).get('user') ?? '') as { id?: unknown };
    if (typeof user.id === 'number' || typeof user.id === 'string') return `user:${user.id}`;
  } catch {
    // No user in the init data (a development token): one shared slot.
  }
  return 'user:unknown';
};

/** IndexedDB where the platform has it, memory otherwise (Node workers, storage refused). */
export const openTapStore = (initData: string): TapStore => {
  const factory = (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (!factory) return new MemoryTapStore();
  const durable = new IndexedDbTapStore(playerKey(initData), factory);
  const fallback = new MemoryTapStore();
  let failed = false;
  // A private mode may refuse IndexedDB at open time: keep counting in memory rather than fail.
  return {
    load: () => durable.load().catch(() => ((failed = true), fallback.load())),
    save: (record) => (failed ? fallback.save(record) : durable.save(record).catch(() => ((failed = true), fallback.save(record)))),
  };
};
