import { describe, expect, it } from 'vitest';
import { isDeviceId } from '../../engine/wire/airdrop-review.ts';
import type { KeyValueStore } from '../../engine/client/ports.ts';
import { deviceId, deviceIdKey, deviceStorageIdKey, loadDeviceId } from '../../src/engine-client/device-id.ts';

const memory = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
};

describe('the device id', () => {
  it('is created once, random, and kept in web storage', () => {
    const s = memory();
    const first = deviceId(s);
    expect(isDeviceId(first)).toBe(true);
    expect(s.m.get(deviceIdKey)).toBe(first);
    expect(deviceId(s)).toBe(first);
    expect(deviceId(memory())).not.toBe(first);
  });

  it('is 16 bytes in base64url, whatever the bytes', () => {
    expect(deviceId(memory(), (b) => b.fill(0xff))).toBe('_____________________w');
    expect(deviceId(memory(), (b) => b.fill(0xfb))).toBe('-_v7-_v7-_v7-_v7-_v7-w');
  });

  it('replaces a stored value that is not one, and works without storage', () => {
    const s = memory();
    s.setItem(deviceIdKey, 'someone@example.com');
    expect(isDeviceId(deviceId(s))).toBe(true);
    const refusing = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); } };
    expect(isDeviceId(deviceId(refusing))).toBe(true);
    expect(isDeviceId(deviceId(null))).toBe(true);
  });
});

describe('the device id on a client with DeviceStorage (Bot API 9.0)', () => {
  const device = (kept?: string, fails = false) => {
    const m = new Map<string, string>(kept ? [[deviceStorageIdKey, kept]] : []);
    const store: KeyValueStore = {
      get: async (k) => {
        if (fails) throw new Error('DeviceStorage.getItem: no answer in 3000 ms');
        return m.get(k) ?? null;
      },
      set: async (k, v) => void m.set(k, v),
      remove: async (k) => void m.delete(k),
    };
    return { m, store };
  };

  it('is the one kept on the device, mirrored in web storage', async () => {
    const kept = deviceId(memory());
    const d = device(kept);
    const s = memory();
    expect(await loadDeviceId(d.store, s)).toEqual({ id: kept, device: d.store });
    expect(s.m.get(deviceIdKey)).toBe(kept);
  });

  it('moves the one web storage kept onto the device, or makes one there', async () => {
    const s = memory();
    const old = deviceId(s);
    const d = device();
    expect((await loadDeviceId(d.store, s)).id).toBe(old);
    expect(d.m.get(deviceStorageIdKey)).toBe(old);
    const fresh = device('not-an-id');
    const made = await loadDeviceId(fresh.store, memory());
    expect(isDeviceId(made.id)).toBe(true);
    expect(fresh.m.get(deviceStorageIdKey)).toBe(made.id);
  });

  it('keeps web storage\'s and drops the device for the session when the device does not answer', async () => {
    const s = memory();
    const old = deviceId(s);
    expect(await loadDeviceId(device(undefined, true).store, s)).toEqual({ id: old, device: null });
    expect(await loadDeviceId(null, s)).toEqual({ id: old, device: null });
  });
});
