import { describe, expect, it } from 'vitest';
import { mergeRecords } from '../pending-taps.ts';
import type { KeyValueStore, PendingTapsRecord, TapStore } from '../ports.ts';
import { deviceTapKey, deviceTapStore, KeyValueTapStore } from './device-tap-store.ts';
import { MemoryTapStore } from './memory-tap-store.ts';

/** A key-value store in memory that can be told to refuse writes or reads (as DeviceStorage may). */
const keyValue = () => {
  const map = new Map<string, string>();
  const faults = { reads: false, writes: false };
  const store: KeyValueStore = {
    get: async (key) => {
      if (faults.reads) throw new Error('DeviceStorage.getItem: no answer in 3000 ms');
      return map.get(key) ?? null;
    },
    set: async (key, value) => {
      if (faults.writes) throw new Error('DeviceStorage.setItem: QUOTA_EXCEEDED');
      map.set(key, value);
    },
    remove: async (key) => {
      if (faults.writes) throw new Error('DeviceStorage.removeItem: UNKNOWN_ERROR');
      map.delete(key);
    },
  };
  return { map, faults, store };
};

const record = (batches: [string, number, number][], unsent = 0, next?: [string, number]): PendingTapsRecord => ({
  batches: batches.map(([batchId, seq, click]) => ({ batchId, seq, click })),
  unsent,
  ...(next ? { next: { batchId: next[0], seq: next[1] } } : {}),
});

describe('mergeRecords', () => {
  it('returns a lone record as it is, and null for none', () => {
    const only = record([['a', 1, 2]], 3, ['n', 2]);
    expect(mergeRecords([null, only])).toBe(only);
    expect(mergeRecords([null, null])).toBeNull();
  });

  it('keeps each batch once and turns promised unsent taps into their batch', () => {
    const web = record([['a', 1, 2], ['b', 2, 5]], 4, ['c', 3]);
    const device = record([['b', 2, 5], ['d', 4, 1]], 0);
    expect(mergeRecords([web, device])).toEqual(record([['a', 1, 2], ['b', 2, 5], ['d', 4, 1], ['c', 3, 4]], 0));
  });

  it('drops promised taps already cut into the batch of that id, and keeps the larger of two promises of one id', () => {
    // The older record promised 3 taps to `c`; the newer one cut `c` with 5 (those 3 among them).
    expect(mergeRecords([record([], 3, ['c', 3]), record([['c', 3, 5]])])).toEqual(record([['c', 3, 5]], 0));
    expect(mergeRecords([record([], 3, ['c', 3]), record([], 7, ['c', 3])])).toEqual(record([['c', 3, 7]], 0));
  });

  it('leaves unsent taps without a promised id unsent, and takes nothing from a damaged record', () => {
    const damaged = { batches: [{ batchId: 7 }, null], unsent: 'x' } as unknown as PendingTapsRecord;
    expect(mergeRecords([record([], 2), damaged, record([['a', 1, 1]], 1)])).toEqual(record([['a', 1, 1]], 3));
  });
});

describe('the tap store of a client with DeviceStorage', () => {
  const key = deviceTapKey('user=%7B%22id%22%3A42%7D&hash=x');

  it('keys the player with the characters DeviceStorage takes', () => {
    expect(key).toBe('money-taps-42');
    expect(deviceTapKey('hash=x')).toBe('money-taps-unknown');
    expect(deviceTapKey(`user=${encodeURIComponent(JSON.stringify({ id: 'a:b/c' }))}`)).toBe('money-taps-a_b_c');
  });

  it('keeps the record on the device, removes the key when nothing is pending, and empties web storage after its first write', async () => {
    const device = keyValue();
    const web = new MemoryTapStore();
    web.record = record([['old', 1, 4]]);
    const store = deviceTapStore(new KeyValueTapStore(device.store, key), web);
    expect(await store.load()).toEqual(record([['old', 1, 4]]));
    await store.save(record([['old', 1, 4], ['new', 2, 1]]));
    expect(JSON.parse(device.map.get(key)!)).toEqual(record([['old', 1, 4], ['new', 2, 1]]));
    expect(web.record).toEqual(record([]));
    const webWrites = web.saves;
    await store.save(record([]));
    expect(device.map.has(key)).toBe(false);
    expect(web.saves).toBe(webWrites); // emptied once, not on every write
  });

  it('falls back to web storage for the session when the device refuses a write, and merges both at the next load', async () => {
    const device = keyValue();
    const web = new MemoryTapStore();
    const store = deviceTapStore(new KeyValueTapStore(device.store, key), web);
    expect(await store.load()).toBeNull();
    await store.save(record([['a', 1, 2]]));
    device.faults.writes = true;
    await store.save(record([['a', 1, 2], ['b', 2, 3]]));
    expect(web.record).toEqual(record([['a', 1, 2], ['b', 2, 3]]));
    device.faults.writes = false;
    await store.save(record([['b', 2, 3]])); // the device is not asked again this session
    expect(JSON.parse(device.map.get(key)!)).toEqual(record([['a', 1, 2]]));
    expect(web.record).toEqual(record([['b', 2, 3]]));

    // The next launch: `a` (acknowledged meanwhile) is sent again under its id and credited once by the server.
    const next = deviceTapStore(new KeyValueTapStore(device.store, key), web);
    expect(await next.load()).toEqual(record([['b', 2, 3], ['a', 1, 2]]));
  });

  it('leaves the device record alone when it could not be read, and keeps the taps in web storage', async () => {
    const device = keyValue();
    device.map.set(key, JSON.stringify(record([['kept', 1, 9]])));
    device.faults.reads = true;
    const web: TapStore = new MemoryTapStore();
    const store = deviceTapStore(new KeyValueTapStore(device.store, key), web);
    expect(await store.load()).toBeNull();
    await store.save(record([['fresh', 2, 1]]));
    expect(JSON.parse(device.map.get(key)!)).toEqual(record([['kept', 1, 9]]));
    expect(await web.load()).toEqual(record([['fresh', 2, 1]]));
  });

  it('reads a damaged value on the device as nothing', async () => {
    const device = keyValue();
    device.map.set(key, '{"batches": [');
    expect(await new KeyValueTapStore(device.store, key).load()).toBeNull();
  });
});
