import type { Worker } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineSnapshot } from '../../engine/client/snapshot.ts';
import type { EngineWorkerApi } from '../../engine/client/worker.ts';
import { startFakeApi, type FakeApi } from './fake-api.ts';
import { spawnTsWorker } from './spawn-ts-worker.ts';

const initData = 'query_id=AAE&user=%7B%22id%22%3A42%7D&auth_date=1700000000&hash=abc';

describe('engine worker through comlink (Node worker_threads)', () => {
  let api: FakeApi;
  let worker: Worker;
  let remote: Comlink.Remote<EngineWorkerApi>;
  let latest: EngineSnapshot | null;
  let posted: number;

  // One worker for the file (starting tsx in a thread takes a second); each test starts a fresh engine in it.
  beforeAll(() => {
    worker = spawnTsWorker(new URL('./engine-worker-entry.ts', import.meta.url));
    remote = Comlink.wrap<EngineWorkerApi>(nodeEndpoint(worker));
  });
  afterAll(() => worker.terminate());

  beforeEach(async () => {
    api = await startFakeApi({ start: { totalEarn: '100', availableEnergy: 50 } });
    latest = null;
    posted = 0;
    await remote.subscribe(
      Comlink.proxy((s: EngineSnapshot) => {
        latest = s;
        posted++;
      }),
    );
    await remote.start({ apiBase: api.base, initData });
  });

  afterEach(async () => {
    await remote.stop();
    await api.close();
  });

  it('loads the status with the raw init data as Authorization and pushes snapshots', async () => {
    expect(api.authorizations[0]).toBe(initData);
    await vi.waitFor(() => expect(latest).toMatchObject({ ready: true, totalEarn: '100', energy: 50 }));
  });

  it('applies taps at once and sends them as one batch with a batchId and seq', async () => {
    expect(await remote.tap(3)).toBe(3);
    expect(await remote.tap(2)).toBe(2);
    const now = await remote.getSnapshot();
    expect(now).toMatchObject({ totalEarn: '105', energy: 45, pendingTaps: 5 });
    await vi.waitFor(() => expect(latest).toMatchObject({ pendingTaps: 0, totalEarn: '105', totalClick: 5 }));
    const batches = api.game.calls.filter((c) => c.kind === 'click').map((c) => c.body as { click: number; batchId: string; seq: number });
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({ click: 5, seq: 1 });
    expect(batches[0]!.batchId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses taps at 0 energy with the §4 message', async () => {
    expect(await remote.tap(60)).toBe(50);
    await vi.waitFor(() => expect(latest?.message?.text).toBe("You don't have enough energy to click!"));
  });

  it('goes offline during an outage and delivers the taps once when the server is back', async () => {
    api.outage = 503;
    await remote.tap(4);
    await vi.waitFor(() => expect(latest).toMatchObject({ online: false, pendingTaps: 4, totalEarn: '104' }));
    api.outage = null;
    await vi.waitFor(() => expect(latest).toMatchObject({ online: true, pendingTaps: 0, totalEarn: '104' }), { timeout: 5_000 });
    expect(api.game.totalClick).toBe(4);
  });

  it('claims before an upgrade and passes the server refusal message through', async () => {
    expect(await remote.upgrade(1)).toEqual({ ok: true, message: 'Upgrade successful' });
    const kinds = api.game.calls.map((c) => c.kind);
    expect(kinds.slice(-2)).toEqual(['claim', 'update-level']);
    const refused = await remote.upgrade(2);
    expect(refused).toEqual({ ok: false, message: 'Upgrade refused: unaffordable' });
    await vi.waitFor(() => expect(latest).toMatchObject({ fingerLevel: 2, energyLevel: 1, totalEarn: '70' }));
  });

  it('posts at most one snapshot per 16 ms frame while tapping 50 times a second', async () => {
    await vi.waitFor(() => expect(latest?.ready).toBe(true));
    const before = posted;
    const started = Date.now();
    for (let i = 0; i < 25; i++) {
      await remote.tap(1);
      await new Promise((r) => setTimeout(r, 20));
    }
    const elapsed = Date.now() - started;
    await vi.waitFor(() => expect(latest?.totalClick).toBe(25));
    expect(posted - before).toBeLessThanOrEqual(Math.ceil(elapsed / 16) + 2);
  });
});
