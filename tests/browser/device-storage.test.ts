import { afterEach, describe, expect, it } from 'vitest';
import { deviceTapKey } from '../../engine/client/adapters/device-tap-store.ts';
import type { ClickPayload } from '../../engine/wire/api-types.ts';
import type { PendingTapsRecord } from '../../engine/client/ports.ts';
import { InMemoryTransport } from '../../engine/client/testing/in-memory-transport.ts';
import { startEngine, stopEngine } from '../../src/engine-client/bridge.ts';
import { deviceIdKey, deviceStorageIdKey } from '../../src/engine-client/device-id.ts';
import { $online, $pendingTaps, $ready, $totalClick } from '../../src/engine-client/signals.ts';
import { clientAnswerMs, openDeviceStorage } from '../../src/telegram.ts';
import { installFakeClient, type FakeClient, type FakeClientOptions } from './mini-app/fake-telegram-client.ts';
import type { RelayAnswer, RelayRequest } from './relay-api-worker.ts';

// The unsent taps and the device id on a client with DeviceStorage (Bot API 9.0) and on one
// without (8.0), through the real bridge, worker, engine and fetch transport, against one fake API
// on the page that outlives each "launch" (a worker), as the real server outlives the app.

const apiBase = '/money/api/v1/airdrop';
let nextUser = Date.now();
const initDataFor = (id: number) => `user=${encodeURIComponent(JSON.stringify({ id }))}&auth_date=1700000000&hash=abc`;

/** The API server: remembers the batchIds it credited across launches, as the real one does. */
class RelayServer {
  readonly server = new InMemoryTransport({ now: () => Date.now() }, { start: { totalEarn: '50', availableEnergy: 100 } });
  readonly requests: RelayRequest[] = [];
  /** Every /click fails before reaching the server (no network). */
  clicksDown = false;
  /** The next /click is processed and credited, and its answer lost on the way back. */
  loseNextClick = false;

  readonly worker = (): Worker => {
    const worker = new Worker(new URL('./relay-api-worker.ts', import.meta.url), { type: 'module' });
    worker.addEventListener('message', (event: MessageEvent<{ relayApi?: RelayRequest }>) => {
      const request = event.data?.relayApi;
      if (request) void this.answer(request).then((relayAnswer) => worker.postMessage({ relayAnswer }));
    });
    return worker;
  };

  get clicks(): RelayRequest[] {
    return this.requests.filter((r) => r.path === '/click');
  }

  /** The ledger rows of taps, by batchId: each batch credited at most once. */
  get credited(): string[] {
    return this.server.ledger.filter((row) => row.kind === 'click').map((row) => row.reference);
  }

  private async answer(request: RelayRequest): Promise<RelayAnswer> {
    this.requests.push(request);
    const { id, path } = request;
    if (path === '/click' && this.clicksDown) return { id, network: true };
    if (path === '/click' && this.loseNextClick) {
      this.loseNextClick = false;
      this.server.failNext('lose');
    }
    try {
      if (path === '') return { id, status: 200, body: await this.server.getStatus() };
      if (path === '/click') return { id, status: 200, body: await this.server.click(request.body as Required<ClickPayload>) };
      if (path === '/claim') return { id, status: 200, body: await this.server.claim() };
      return { id, status: 404, body: { error: 'NotFound', message: path } };
    } catch {
      return { id, network: true };
    }
  }
}

let client: FakeClient | null = null;
/** A launch of the mini-app by a Telegram client of `version` (the device storage it kept, if any). */
const launch = (server: RelayServer, initData: string, options: Omit<FakeClientOptions, 'platform'>) => {
  client?.restore();
  client = installFakeClient({ platform: 'android', initData, ...options });
  return { client, engine: startEngine({ apiBase, initData }, server.worker) };
};

/** Some Telegram clients keep web storage apart from one launch to the next: it is gone. */
const clearWebStorage = async (): Promise<void> => {
  localStorage.clear();
  await new Promise<void>((resolve, reject) => {
    const request = indexedDB.deleteDatabase('money-engine');
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error ?? new Error('deleteDatabase failed'));
  });
};

/** The record IndexedDB holds for `initData`'s player (web storage's copy of the taps). */
const webRecord = async (initData: string): Promise<PendingTapsRecord | null> => {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open('money-engine', 1);
    request.onupgradeneeded = () => request.result.createObjectStore('pending-taps');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('open failed'));
  });
  try {
    const id = (JSON.parse(new URLSearchParams(initData).get('user')!) as { id: number }).id;
    return await new Promise((resolve, reject) => {
      const request = db.transaction('pending-taps').objectStore('pending-taps').get(`user:${id}`);
      request.onsuccess = () => resolve((request.result as PendingTapsRecord | undefined) ?? null);
      request.onerror = () => reject(request.error ?? new Error('get failed'));
    });
  } finally {
    db.close();
  }
};

afterEach(() => {
  stopEngine();
  client?.restore();
  client = null;
});

describe.each(['8.0', '9.0'])('taps queued on a Bot API %s client, the app closed and opened again', (version) => {
  const hasDeviceStorage = version === '9.0';

  it('sends them on the next launch with their batch ids, credited once', async () => {
    const server = new RelayServer();
    const initData = initDataFor(++nextUser);
    const device = new Map<string, string>();
    server.clicksDown = true;
    const first = launch(server, initData, { version, device });
    await expect.poll(() => $ready.value).toBe(true);
    expect(await first.engine.tap(4)).toBe(4);
    await expect.poll(() => server.clicks.length).toBeGreaterThan(0);
    await expect.poll(() => $online.value).toBe(false);
    const queued = server.clicks[0]!.body as Required<ClickPayload>;
    expect(queued.click).toBe(4);
    if (hasDeviceStorage) {
      // The batch is on the device, in Telegram's DeviceStorage.
      await expect.poll(() => device.get(deviceTapKey(initData)) ?? '').toContain(queued.batchId);
      expect(first.client.deviceLog.some((call) => call.includes('→'))).toBe(false);
    } else {
      expect(first.client.deviceLog).toEqual([]);
      expect(device.size).toBe(0);
    }
    expect(first.client.unsupported).toEqual([]);
    stopEngine(); // the app is closed
    if (hasDeviceStorage) await clearWebStorage();
    const sentBefore = server.clicks.length;

    server.clicksDown = false;
    const second = launch(server, initData, { version, device });
    await expect.poll(() => server.clicks.length).toBeGreaterThan(sentBefore);
    expect(server.clicks[sentBefore]!.body).toEqual(queued);
    await expect.poll(() => $totalClick.value).toBe(4);
    await expect.poll(() => $pendingTaps.value).toBe(0);
    expect(server.credited.filter((batchId) => batchId === queued.batchId)).toHaveLength(1);
    expect(new Set(server.credited).size).toBe(server.credited.length);
    expect(second.client.unsupported).toEqual([]);
    // Nothing is left pending: the device storage holds no taps any more.
    if (hasDeviceStorage) await expect.poll(() => device.has(deviceTapKey(initData))).toBe(false);
  });

  it('sends a batch whose answer was lost again under its id after the launch, and the server credits it once', async () => {
    const server = new RelayServer();
    const initData = initDataFor(++nextUser);
    const device = new Map<string, string>();
    server.loseNextClick = true;
    const first = launch(server, initData, { version, device });
    await expect.poll(() => $ready.value).toBe(true);
    expect(await first.engine.tap(3)).toBe(3);
    await expect.poll(() => server.credited.length).toBe(1);
    server.clicksDown = true; // the network goes before the retry
    const lost = server.clicks[0]!.body as Required<ClickPayload>;
    await expect.poll(() => $online.value).toBe(false);
    stopEngine();
    if (hasDeviceStorage) await clearWebStorage();

    server.clicksDown = false;
    const sentBefore = server.clicks.length;
    launch(server, initData, { version, device });
    await expect.poll(() => server.clicks.length).toBeGreaterThan(sentBefore);
    expect(server.clicks[sentBefore]!.body).toEqual(lost);
    await expect.poll(() => $totalClick.value).toBe(3);
    expect(server.credited).toEqual([lost.batchId]);
    expect(server.server.totalClick).toBe(3);
  });
});

describe('the device id', () => {
  it('lives in DeviceStorage on 9.0 (kept from the web storage of an older launch) and in web storage on 8.0', async () => {
    const server = new RelayServer();
    const initData = initDataFor(++nextUser);
    const device = new Map<string, string>();
    localStorage.clear();
    const old = launch(server, initData, { version: '8.0', device });
    await expect.poll(() => $ready.value).toBe(true);
    await old.engine.tap(1);
    await expect.poll(() => server.clicks.length).toBe(1);
    const id = server.clicks[0]!.deviceId!;
    expect(localStorage.getItem(deviceIdKey)).toBe(id);
    expect(old.client.deviceLog).toEqual([]);
    stopEngine();

    // The client moved to 9.0: the id it had is kept, now on the device.
    const modern = launch(server, initData, { version: '9.0', device });
    await expect.poll(() => $ready.value).toBe(true);
    expect(device.get(deviceStorageIdKey)).toBe(id);
    stopEngine();

    // Web storage is gone; the device still has the id, and sends it.
    await clearWebStorage();
    const again = launch(server, initData, { version: '9.0', device });
    await expect.poll(() => $ready.value).toBe(true);
    await again.engine.tap(1);
    await expect.poll(() => server.clicks.length).toBe(2);
    expect(server.clicks[1]!.deviceId).toBe(id);
    expect(modern.client.unsupported).toEqual([]);
  });
});

describe('a DeviceStorage that refuses or does not answer', () => {
  it('over its quota: the taps are kept in web storage, sent once on the next launch, and web storage is emptied once the device takes a write', async () => {
    const server = new RelayServer();
    const initData = initDataFor(++nextUser);
    const device = new Map<string, string>();
    server.clicksDown = true;
    // Room for the device id (15 + 22 characters) and nothing more.
    const first = launch(server, initData, { version: '9.0', device, deviceQuota: 40 });
    await expect.poll(() => $ready.value).toBe(true);
    expect(await first.engine.tap(2)).toBe(2);
    await expect.poll(() => server.clicks.length).toBeGreaterThan(0);
    const queued = server.clicks[0]!.body as Required<ClickPayload>;
    await expect.poll(() => first.client.deviceLog).toContain(`save_key ${deviceTapKey(initData)} → QUOTA_EXCEEDED`);
    await expect.poll(async () => (await webRecord(initData))?.batches.map((b) => b.batchId)).toEqual([queued.batchId]);
    expect(device.has(deviceTapKey(initData))).toBe(false);
    stopEngine();

    server.clicksDown = false;
    const sentBefore = server.clicks.length;
    launch(server, initData, { version: '9.0', device });
    await expect.poll(() => server.clicks.length).toBeGreaterThan(sentBefore);
    expect(server.clicks[sentBefore]!.body).toEqual(queued);
    await expect.poll(() => $totalClick.value).toBe(2);
    expect(server.credited).toEqual([queued.batchId]);
    await expect.poll(async () => await webRecord(initData)).toEqual({ batches: [], unsent: 0 });
  });

  it('that never answers: the game starts on web storage after the wait', async () => {
    const server = new RelayServer();
    const initData = initDataFor(++nextUser);
    const silent = launch(server, initData, { version: '9.0', deviceAnswers: false });
    await expect.poll(() => $ready.value, { timeout: clientAnswerMs + 5_000 }).toBe(true);
    expect(await silent.engine.tap(2)).toBe(2);
    await expect.poll(() => $totalClick.value).toBe(2);
    // Asked once for the id, then left alone for the session.
    expect(silent.client.deviceLog).toEqual([`get_key ${deviceStorageIdKey}`]);
  });
});

describe('openDeviceStorage (src/telegram.ts)', () => {
  it('is null before 9.0 and answers through the callbacks, refusing what Telegram refuses, on 9.0', async () => {
    client = installFakeClient({ version: '8.0', platform: 'ios' });
    expect(await openDeviceStorage()).toBeNull();
    expect(client.unsupported).toEqual([]);
    client.restore();

    client = installFakeClient({ version: '9.0', platform: 'ios', deviceQuota: 100 });
    const store = (await openDeviceStorage())!;
    expect(await store.get('missing')).toBeNull();
    await store.set('money-x', 'value');
    expect(await store.get('money-x')).toBe('value');
    await store.remove('money-x');
    expect(client.device.size).toBe(0);
    await expect(store.set('money:x', 'value')).rejects.toThrow('KEY_INVALID');
    await expect(store.set('k'.repeat(129), 'value')).rejects.toThrow('KEY_INVALID');
    await expect(store.set('money-x', 'v'.repeat(100))).rejects.toThrow('QUOTA_EXCEEDED');
    expect(client.device.size).toBe(0);
  });
});
