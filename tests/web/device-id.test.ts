import { describe, expect, it } from 'vitest';
import { isDeviceId } from '../../engine/airdrop-review.ts';
import { deviceId, deviceIdKey } from '../../src/engine-client/device-id.ts';

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
