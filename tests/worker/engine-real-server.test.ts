/**
 * The real engine worker (Node worker_threads, comlink's node adapter) against the real API server
 * (createApp on PGlite, listening on 127.0.0.1): the wire contract of click, claim, status and
 * update-level, end to end, with nothing of ours faked.
 */
import type { AddressInfo } from 'node:net';
import type { Worker } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiPrefix, type UserStatus } from '../../engine/wire/api-types.ts';
import type { EngineSnapshot } from '../../engine/client/snapshot.ts';
import type { EngineWorkerApi } from '../../engine/client/worker.ts';
import { openHarness, type Harness } from '../server/harness.ts';
import { spawnTsWorker } from './spawn-ts-worker.ts';

describe('engine worker against the real API server', () => {
  let harness: Harness;
  let worker: Worker;
  let remote: Comlink.Remote<EngineWorkerApi>;
  let latest: EngineSnapshot | null = null;
  let user: number;

  beforeAll(async () => {
    harness = await openHarness('pglite');
    await harness.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(harness.app.server.address() as AddressInfo).port}${apiPrefix}`;
    user = harness.newUserId();
    worker = spawnTsWorker(new URL('./engine-worker-entry.ts', import.meta.url));
    remote = Comlink.wrap<EngineWorkerApi>(nodeEndpoint(worker));
    await remote.subscribe(Comlink.proxy((s: EngineSnapshot) => void (latest = s)));
    await remote.start({ apiBase: base, initData: harness.initData(user) });
  }, 60_000);

  afterAll(async () => {
    await remote?.stop();
    await worker?.terminate();
    await harness?.close();
  });

  const serverStatus = async (): Promise<UserStatus> => (await harness.call('GET', '', user)).json();

  it('loads the status, and taps reach the server once, reconciled to its answer', async () => {
    await vi.waitFor(() => expect(latest?.ready).toBe(true));
    const before = await serverStatus();
    expect(await remote.tap(5)).toBe(5);
    await vi.waitFor(() => expect(latest).toMatchObject({ pendingTaps: 0, totalClick: before.totalClick + 5 }), { timeout: 5_000 });
    const after = await serverStatus();
    expect(after.totalClick).toBe(before.totalClick + 5);
    expect(latest!.totalEarn).toBe(after.totalEarn);
    expect(latest!.energy).toBe(after.availableEnergy);
  });

  it('claims, and passes the server refusal of an unaffordable upgrade through as its message', async () => {
    expect(await remote.claim()).toEqual({ ok: true, message: 'Claimed successful' });
    const refused = await remote.upgrade(2);
    expect(refused.ok).toBe(false);
    expect(refused.message).not.toBe('');
    expect((await serverStatus()).energyLevel).toBe(1);
  });
});
