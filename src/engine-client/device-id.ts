/**
 * The device id (docs/airdrop.md "Integrity review"): 16 random bytes, base64url, created once
 * and kept in web storage, sent by the engine's transport as `x-device-id` with its calls. It is
 * random: it tells the server that two accounts play on one device, never who plays. Kept here,
 * on the page, because the engine's worker has no localStorage.
 */
import { isDeviceId } from '../../engine/airdrop-review.ts';

export const deviceIdKey = 'money.deviceId';

const newDeviceId = (random: (bytes: Uint8Array) => Uint8Array): string =>
  btoa(String.fromCharCode(...random(new Uint8Array(16))))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** This device's id: the stored one, or a new one stored now (kept for this page alone when storage refuses). */
export const deviceId = (storage: Pick<Storage, 'getItem' | 'setItem'> | null = globalThis.localStorage ?? null, random = (b: Uint8Array) => crypto.getRandomValues(b)): string => {
  try {
    const stored = storage?.getItem(deviceIdKey);
    if (isDeviceId(stored)) return stored;
  } catch {
    // Storage disabled (a private window): a new id for this page.
  }
  const id = newDeviceId(random);
  try {
    storage?.setItem(deviceIdKey, id);
  } catch {
    // Not stored: the next page makes another; the server sees a new device, nothing worse.
  }
  return id;
};
