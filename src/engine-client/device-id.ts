/**
 * The device id (docs/airdrop.md "Integrity review"): 16 random bytes, base64url, created once
 * and kept on the device, sent by the engine's transport as `x-device-id` with its calls. It is
 * random: it tells the server that two accounts play on one device, never who plays. Kept here,
 * on the page, because the engine's worker has no localStorage and no Telegram client. On clients
 * with device storage (Bot API 9.0) it lives there, which Telegram keeps from one launch to the
 * next, mirrored in web storage; elsewhere in web storage alone.
 */
import { isDeviceId } from '../../engine/wire/airdrop-review.ts';
import type { KeyValueStore } from '../../engine/client/ports.ts';

/** The key in web storage. */
export const deviceIdKey = 'money.deviceId';
/** The key in Telegram's DeviceStorage (keys there are A–Z, a–z, 0–9, `_` and `-` alone). */
export const deviceStorageIdKey = 'money-device-id';

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

/** What `loadDeviceId` found: the id, and the device storage if it answered (null: web storage serves this session). */
export interface LoadedDeviceId {
  id: string;
  device: KeyValueStore | null;
}

/**
 * This device's id where the client has device storage (`device`, src/telegram.ts
 * openDeviceStorage): the one kept there; else the one web storage kept (a player whose client
 * moved to 9.0 keeps the id it had), stored on the device now; else a new one. A device storage
 * that fails this first read, or does not answer it, is not used for the rest of the session
 * (`device: null`) and web storage's id serves. Without device storage, `deviceId`.
 */
export const loadDeviceId = async (
  device: KeyValueStore | null,
  storage: Pick<Storage, 'getItem' | 'setItem'> | null = globalThis.localStorage ?? null,
  random = (b: Uint8Array) => crypto.getRandomValues(b),
): Promise<LoadedDeviceId> => {
  if (!device) return { id: deviceId(storage, random), device: null };
  let kept: string | null;
  try {
    kept = await device.get(deviceStorageIdKey);
  } catch {
    return { id: deviceId(storage, random), device: null };
  }
  if (isDeviceId(kept)) {
    try {
      storage?.setItem(deviceIdKey, kept);
    } catch {
      // The mirror is a convenience: the device storage has it.
    }
    return { id: kept, device };
  }
  const id = deviceId(storage, random);
  await device.set(deviceStorageIdKey, id).catch(() => undefined);
  return { id, device };
};
