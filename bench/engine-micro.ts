/**
 * The engine micro-benchmarks of `bench/engine.bench.ts`, platform-free so they run the same in
 * Node and in a Chromium worker: (a) the 1 s tick with all 21 items at high levels, (b) 1000
 * taps then one snapshot, (c) the snapshot's size.
 */
import { MemoryTapStore } from '../engine/client/adapters/memory-tap-store.ts';
import { tapRules } from '../engine/rules/clicks.ts';
import { boostCatalogue, passiveItemKeys } from '../engine/rules/economy.ts';
import { Engine } from '../engine/client/engine.ts';
import type { Scheduler } from '../engine/client/ports.ts';
import { counterIds, InMemoryTransport } from '../engine/client/testing/in-memory-transport.ts';

export interface MicroResults {
  tickMedianUs: number;
  /** The 99th percentile of the 50-tick group means. */
  tickP99Us: number;
  taps1000MedianUs: number;
  snapshotBytes: number;
}

/** Timers that never fire: the benchmark calls tick() itself, so nothing else runs in between. */
const idle: Scheduler = { setTimeout: () => 0, clearTimeout: () => undefined };

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** Runs the micro-benchmarks with `nowMs` as the high-resolution timer (performance.now). */
export const runMicro = async (nowMs: () => number, samples = 10_000): Promise<MicroResults> => {
  let clockMs = 1_700_000_000_000;
  const clock = { now: () => clockMs };
  const levels: Record<string, number> = { 3: boostCatalogue[3].maxLevel - 7 };
  for (const key of passiveItemKeys) levels[key] = boostCatalogue[key].maxLevel - key;
  const server = new InMemoryTransport(clock, {
    start: { passiveEarnLevel: levels, fingerLevel: 5_000, energyLevel: 5_000, totalEarn: `${'9'.repeat(60)}.25` },
  });
  // 10,000 ticks stay under the 3 h accrual cap, so every tick changes autoEarn (the costly path).
  server.lastClaimedMs = clockMs;
  // 1000 taps in 10 ms are far past the human-rate allowance, which the engine predicts
  // (engine/rules/clicks.ts): an unbounded burst keeps every tap applied, as the timings intend.
  const rules = { ...tapRules, humanTapBurst: Number.MAX_SAFE_INTEGER };
  const engine = new Engine({ clock, scheduler: idle, transport: server, store: new MemoryTapStore(), newId: counterIds(), rules });
  await engine.start();
  engine.subscribe(() => undefined);

  // (a) one tick per simulated second: passive income accrues, the snapshot is rebuilt. Timed in
  // groups of 50 ticks, because a browser's performance.now() is coarse (5–100 µs).
  const group = 50;
  const ticks: number[] = [];
  for (let i = 0; i < samples / group; i++) {
    const t0 = nowMs();
    for (let j = 0; j < group; j++) {
      clockMs += 1_000;
      engine.tick();
    }
    ticks.push(((nowMs() - t0) * 1_000) / group);
  }
  ticks.sort((a, b) => a - b);

  // (b) 1000 taps, then the snapshot that carries them.
  const taps: number[] = [];
  for (let run = 0; run < 200; run++) {
    clockMs += 10;
    const t0 = nowMs();
    for (let i = 0; i < 1_000; i++) engine.tap(1);
    engine.getSnapshot();
    taps.push((nowMs() - t0) * 1_000);
  }
  taps.sort((a, b) => a - b);

  // (c) the snapshot at its largest: every level at 4 digits, 60-digit balances, a message.
  engine.tap(10_000_000);
  const bytes = new TextEncoder().encode(JSON.stringify(engine.getSnapshot())).length;
  engine.stop();
  return { tickMedianUs: percentile(ticks, 0.5), tickP99Us: percentile(ticks, 0.99), taps1000MedianUs: percentile(taps, 0.5), snapshotBytes: bytes };
};
