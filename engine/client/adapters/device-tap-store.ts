import { mergeRecords } from '../pending-taps.ts';
import type { KeyValueStore, PendingTapsRecord, TapStore } from '../ports.ts';
import { playerKey } from './indexed-db-tap-store.ts';

/**
 * The key of a player's taps in a key-value store. Telegram's DeviceStorage takes keys of 1–128
 * characters of A–Z, a–z, 0–9, `_` and `-`, so the player key (`user:<telegram id>`) is spelt
 * with those alone.
 */
export const deviceTapKey = (initData: string): string =>
  `money-taps-${playerKey(initData).slice('user:'.length).replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 128);

/** Unacknowledged taps as one JSON value under one key of a key-value store (DeviceStorage). */
export class KeyValueTapStore implements TapStore {
  constructor(
    private readonly store: KeyValueStore,
    private readonly key: string,
  ) {}

  async load(): Promise<PendingTapsRecord | null> {
    const text = await this.store.get(this.key);
    if (!text) return null;
    try {
      return JSON.parse(text) as PendingTapsRecord;
    } catch {
      return null; // a damaged value: PendingTaps.restore would take nothing from it either
    }
  }

  save(record: PendingTapsRecord): Promise<void> {
    // Nothing pending: the key is removed rather than kept holding an empty record.
    if (record.batches.length === 0 && record.unsent === 0) return this.store.remove(this.key);
    return this.store.set(this.key, JSON.stringify(record));
  }
}

const nothingPending: PendingTapsRecord = { batches: [], unsent: 0 };

/**
 * The tap store of a client with device storage (docs/engine.md "Persistence"). The record lives
 * in `device` (Telegram's DeviceStorage, which the client keeps from one launch to the next);
 * `web` (IndexedDB) takes over for the rest of the session the moment the device refuses a write
 * (its quota, a key it rejects) or does not answer. `load` reads both and merges them
 * (`mergeRecords`), so taps an older client or a session that fell back left in web storage are
 * sent too, each batch under its own id; the first write the device takes empties web storage.
 */
export const deviceTapStore = (device: TapStore, web: TapStore): TapStore => {
  let deviceWorks = true;
  // Web storage may hold a record (an older client's, or a fallen-back session's) until emptied.
  let webHolds = true;
  return {
    async load() {
      const [onDevice, onWeb] = await Promise.all([
        device.load().catch(() => {
          // Not read: left as it is for a later launch, and not written over in this one.
          deviceWorks = false;
          return null;
        }),
        web.load().catch(() => null),
      ]);
      return mergeRecords([onWeb, onDevice]);
    },
    async save(record) {
      if (deviceWorks) {
        try {
          await device.save(record);
          if (webHolds) {
            webHolds = false;
            await web.save(nothingPending).catch(() => undefined);
          }
          return;
        } catch {
          deviceWorks = false;
        }
      }
      webHolds = true;
      await web.save(record);
    },
  };
};
