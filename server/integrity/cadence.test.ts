import { describe, expect, it } from 'vitest';
import { configSchemaOf, loadSettings } from '../core/config/config.ts';
import { cvOf, emptyCadence, foldBatch, type CadenceState } from './cadence.ts';
import { integritySettings } from './settings.ts';
import { integrityRulesOf } from './rules.ts';

const rules = integrityRulesOf(loadSettings(configSchemaOf(integritySettings), { NODE_ENV: 'test' }));
const t0 = Date.UTC(2026, 0, 15, 0, 0, 0);

/** Folds batches given as [ms after t0, taps] into a fresh state. */
const fold = (batches: readonly (readonly [number, number])[], s: CadenceState = emptyCadence()): CadenceState => {
  for (const [at, taps] of batches) foldBatch(s, t0 + at, taps, rules);
  return s;
};

/** A seeded generator (mulberry32), so a "human" is the same every run. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};

describe('tap cadence', () => {
  it('measures the coefficient of variation from Welford sums', () => {
    expect(cvOf(0, 0, 0)).toBe(0);
    // Values 1 and 3: mean 2, population deviation 1.
    expect(cvOf(2, 2, 2)).toBeCloseTo(0.5);
  });

  it('finds a script: every batch 1 s apart with the same taps is machine-regular, and at the cap', () => {
    // 60 gaps: six windows of 10 (INTEGRITY_RHYTHM_WINDOW).
    const s = fold(Array.from({ length: 61 }, (_, i) => [i * 1_000, 20] as const));
    expect(s.windows).toBe(6);
    expect(s.regularWindows).toBe(6);
    expect(s.activeMs).toBe(60_000);
    expect(s.capMs).toBe(60_000);
  });

  it('finds a human irregular: the mini-app’s batches with varying taps and short breaks', () => {
    const rnd = seeded(7);
    const batches: [number, number][] = [];
    let at = 0;
    for (let i = 0; i < 200; i++) {
      at += rnd() < 0.15 ? 2_000 + rnd() * 8_000 : 400 + rnd() * 700;
      batches.push([Math.round(at), 3 + Math.floor(rnd() * 8)]);
    }
    const s = fold(batches);
    expect(s.windows).toBeGreaterThan(5);
    expect(s.regularWindows).toBe(0);
    expect(s.capMs / s.activeMs).toBeLessThan(0.05);
  });

  it('does not call even gaps regular when the taps vary (a human at the mini-app’s 1 s batch cadence)', () => {
    const rnd = seeded(11);
    const s = fold(Array.from({ length: 41 }, (_, i) => [i * 1_000, 5 + Math.floor(rnd() * 5)] as const));
    expect(s.windows).toBe(4);
    expect(s.regularWindows).toBe(0);
  });

  it('ends a session at a long gap and does not measure a window cut short by it', () => {
    const first = Array.from({ length: 8 }, (_, i) => [i * 1_000, 20] as const);
    const second = Array.from({ length: 8 }, (_, i) => [200_000 + i * 1_000, 20] as const);
    const s = fold([...first, ...second]);
    expect(s.windows).toBe(0);
    // 7 gaps in each session: the 193 s between them is not time spent tapping.
    expect(s.activeMs).toBe(14_000);
  });

  it('leaves auto-clicks out: an app left open sends a few taps every 10 s, and that is not play', () => {
    const s = fold(Array.from({ length: 24 * 360 }, (_, i) => [i * 10_000, 3] as const));
    expect(s.windows).toBe(0);
    expect(s.maxDayHours).toBe(1);
    expect(s.longestStretchMs).toBe(0);
  });

  it('counts the hours with play in any 24 in a row, across midnight', () => {
    // One burst an hour from 12:00 for 22 hours, then nothing.
    const s = fold(Array.from({ length: 22 }, (_, h) => [(12 + h) * 3_600_000, 10] as const));
    expect(s.maxDayHours).toBe(22);
    const sleeper = fold([...Array.from({ length: 16 }, (_, h) => [(7 + h) * 3_600_000, 10] as const), ...Array.from({ length: 16 }, (_, h) => [(31 + h) * 3_600_000, 10] as const)]);
    expect(sleeper.maxDayHours).toBe(16);
  });

  it('keeps the longest stretch of play with no pause of 10 minutes', () => {
    // A batch every 5 minutes for 4 hours: never a 10-minute pause.
    const s = fold(Array.from({ length: 49 }, (_, i) => [i * 300_000, 1] as const));
    expect(s.longestStretchMs).toBe(4 * 3_600_000);
    const paused = fold(Array.from({ length: 49 }, (_, i) => [i * 300_000 + (i >= 24 ? 600_000 : 0), 1] as const));
    expect(paused.longestStretchMs).toBe(2 * 3_600_000);
  });

  it('judges rhythm by the client’s clock: a script stays regular when a slow server scatters its arrivals', () => {
    const rnd = seeded(3);
    const byServer = emptyCadence();
    const byClient = emptyCadence();
    for (let i = 0; i < 61; i++) {
      const client = 5_000_000 + i * 1_000;
      const server = t0 + i * 1_000 + Math.round(rnd() * 800);
      foldBatch(byServer, server, 20, rules);
      foldBatch(byClient, server, 20, rules, client);
    }
    expect(byServer.regularWindows).toBe(0);
    expect(byClient.windows).toBe(6);
    // The session's first batch is timed by the server until the client's offset settles: its window may not be even.
    expect(byClient.regularWindows).toBeGreaterThanOrEqual(5);
  });

  it('judges the cap by the client’s clock: a person’s batches bunched by a server backlog are not taps at the cap', () => {
    const rnd = seeded(5);
    const byServer = emptyCadence();
    const byClient = emptyCadence();
    for (let i = 0; i < 100; i++) {
      const client = 5_000_000 + i * 1_000;
      // Five batches answered together: each waited in the outbox for the one before.
      const server = t0 + Math.floor(i / 5) * 5_000 + (i % 5) * 20;
      const taps = 4 + Math.floor(rnd() * 6);
      foldBatch(byServer, server, taps, rules);
      foldBatch(byClient, server, taps, rules, client);
    }
    expect(byClient.capMs).toBeLessThan(byServer.capMs / 10);
    expect(byClient.capMs / byClient.activeMs).toBeLessThan(0.01);
    expect(byClient.regularWindows).toBe(0);
  });

  it('does not believe a client clock that runs ahead of the server’s: those batches are timed by the server', () => {
    const liar = emptyCadence();
    // The script claims 3 s between batches the server sees 1 s apart.
    for (let i = 0; i < 61; i++) foldBatch(liar, t0 + i * 1_000, 20, rules, 5_000_000 + i * 3_000);
    expect(liar.activeMs).toBe(60_000);
    expect(liar.capMs).toBe(60_000);
  });

  it('carries a session across runs: folding in two parts gives the same sums as in one', () => {
    const batches = Array.from({ length: 50 }, (_, i) => [i * 900 + (i % 3) * 50, 5 + (i % 4)] as const);
    const whole = fold(batches);
    const parts = fold(batches.slice(25), fold(batches.slice(0, 25)));
    expect(parts).toEqual(whole);
  });
});
