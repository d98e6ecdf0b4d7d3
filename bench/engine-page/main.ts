/**
 * The Chromium half of bench/engine.bench.ts, built with Vite: the micro-benchmarks in a worker,
 * comlink against raw postMessage, and snapshots per animation frame at 50 taps/s through the
 * real engine worker (its fetch answered by the fake API of tests/browser). Results land on
 * `window.__engineBench`.
 */
import * as Comlink from 'comlink';
import type { EngineSnapshot } from '../../engine/client/snapshot.ts';
import type { EngineWorkerApi } from '../../engine/client/worker.ts';
import { frameStats, roundTrips } from '../engine-round-trip.ts';

const micro = await new Promise<Record<string, unknown>>((resolve) => {
  const worker = new Worker(new URL('./micro-worker.ts', import.meta.url), { type: 'module' });
  worker.onmessage = (event) => {
    resolve(event.data as Record<string, unknown>);
    worker.terminate();
  };
});

const engineWorker = new Worker(new URL('../../tests/browser/fake-api-worker.ts', import.meta.url), { type: 'module', name: 'bench' });
const remote = Comlink.wrap<EngineWorkerApi>(engineWorker);
const echo = new Worker(new URL('./echo-worker.ts', import.meta.url), { type: 'module' });
const rawRoundTrip = (value: number) =>
  new Promise<unknown>((resolve) => {
    echo.onmessage = (event) => resolve(event.data);
    echo.postMessage({ value });
  });
const comlinkUs = await roundTrips((i) => remote.ping(i), () => performance.now());
const rawUs = await roundTrips((i) => rawRoundTrip(i), () => performance.now());

const snapshotTimes: number[] = [];
await remote.subscribe(Comlink.proxy((_: EngineSnapshot) => void snapshotTimes.push(performance.now())));
await remote.start({ apiBase: '/money/api/v1/airdrop', initData: 'user=%7B%22id%22%3A1%7D' });
let frames = 0;
let counting = true;
const onFrame = () => {
  frames++;
  if (counting) requestAnimationFrame(onFrame);
};
snapshotTimes.length = 0;
requestAnimationFrame(onFrame);
const started = performance.now();
for (let i = 0; i < 150; i++) {
  void remote.tap(1);
  await new Promise((r) => setTimeout(r, 20));
}
await new Promise((r) => setTimeout(r, 100));
counting = false;
const frame = frameStats(snapshotTimes, performance.now() - started, frames);

(window as unknown as { __engineBench: unknown }).__engineBench = { micro, comlinkUs, rawUs, frame };
