/** Shared by the Node and Chromium halves of bench/engine.bench.ts. */

export interface RoundTrip {
  /** Total time over the count: robust to a coarse browser timer. */
  meanUs: number;
  medianUs: number;
  p99Us: number;
}

const measure = async (call: (i: number) => Promise<unknown>, nowMs: () => number, count: number): Promise<RoundTrip> => {
  const samples: number[] = [];
  const start = nowMs();
  for (let i = 0; i < count; i++) {
    const t0 = nowMs();
    await call(i);
    samples.push((nowMs() - t0) * 1_000);
  }
  const meanUs = ((nowMs() - start) * 1_000) / count;
  samples.sort((a, b) => a - b);
  return { meanUs, medianUs: samples[Math.floor(count / 2)]!, p99Us: samples[Math.floor(count * 0.99)]! };
};

/**
 * Times `count` sequential round trips (after a warm-up), five times over, and keeps the middle
 * run by mean: the machine is shared, so one run can land on someone else's build.
 */
export const roundTrips = async (call: (i: number) => Promise<unknown>, nowMs: () => number, count = 2_000): Promise<RoundTrip> => {
  for (let i = 0; i < 200; i++) await call(i);
  const runs: RoundTrip[] = [];
  for (let r = 0; r < 5; r++) runs.push(await measure(call, nowMs, count));
  runs.sort((a, b) => a.meanUs - b.meanUs);
  return runs[2]!;
};

export interface FrameStats {
  snapshots: number;
  frames: number;
  elapsedMs: number;
  /** Snapshots per 16.7 ms frame over the run (≤ 1 is the target). */
  perFrame: number;
  /** The shortest gap between two snapshots. */
  minGapMs: number;
}

/** Snapshot cadence against frames (counted by requestAnimationFrame, or 60 Hz when none). */
export const frameStats = (snapshotTimes: number[], elapsedMs: number, frames?: number): FrameStats => {
  let minGapMs = Infinity;
  for (let i = 1; i < snapshotTimes.length; i++) minGapMs = Math.min(minGapMs, snapshotTimes[i]! - snapshotTimes[i - 1]!);
  const frameCount = frames ?? Math.round(elapsedMs / (1_000 / 60));
  return { snapshots: snapshotTimes.length, frames: frameCount, elapsedMs, perFrame: snapshotTimes.length / frameCount, minGapMs };
};
