import { describe, expect, it } from 'vitest';
import { createPacer } from './pacer.ts';

/** A stepped clock whose sleep advances time, recording every send. */
const harness = (ratePerSecond: number) => {
  let t = 1_000_000;
  const pacer = createPacer({
    ratePerSecond,
    now: () => t,
    sleep: async (ms) => {
      t += ms;
    },
  });
  return { pacer, now: () => t, advance: (ms: number) => (t += ms) };
};

describe('pacer', () => {
  it('never lets more than the rate through in any one-second window', async () => {
    const h = harness(30);
    const sends: number[] = [];
    for (let i = 0; i < 200; i++) {
      await h.pacer.slot();
      sends.push(h.now());
    }
    for (const [i, at] of sends.entries()) {
      const inWindow = sends.slice(i).filter((s) => s < at + 1000).length;
      expect(inWindow).toBeLessThanOrEqual(30);
    }
    // …and it does not go needlessly slow: 200 sends at 30/s take about 200/30 s.
    expect(sends.at(-1)! - sends[0]!).toBeLessThan(Math.ceil((200 / 30) * 1000) + 1);
  });

  it('holds every send until a 429 retry_after has passed', async () => {
    const h = harness(30);
    await h.pacer.slot();
    const pausedAt = h.now();
    h.pacer.pauseUntil(pausedAt + 5_000);
    await h.pacer.slot();
    expect(h.now()).toBeGreaterThanOrEqual(pausedAt + 5_000);
  });

  it('sends at once when idle', async () => {
    const h = harness(30);
    await h.pacer.slot();
    h.advance(10_000);
    const before = h.now();
    await h.pacer.slot();
    expect(h.now()).toBe(before);
  });

  it('stops waiting when cancelled, even during a 429 pause', async () => {
    let stopped = false;
    let slept = 0;
    const pacer = createPacer({
      ratePerSecond: 30,
      now: () => 0,
      sleep: async () => {
        slept += 1;
        stopped = true;
      },
      cancelled: () => stopped,
    });
    pacer.pauseUntil(30_000);
    await pacer.slot();
    expect(slept).toBe(1);
  });
});
