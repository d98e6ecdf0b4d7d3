import { describe, expect, it } from 'vitest';
import { ManualTime } from './manual-time.ts';

describe('manual time', () => {
  it('fires timers in due order at their own due time, and not before', async () => {
    const time = new ManualTime(0);
    const fired: string[] = [];
    time.setTimeout(() => fired.push(`b@${time.now()}`), 200);
    time.setTimeout(() => fired.push(`a@${time.now()}`), 100);
    const cancelled = time.setTimeout(() => fired.push('never'), 150);
    time.clearTimeout(cancelled);
    await time.advance(99);
    expect(fired).toEqual([]);
    await time.advance(150);
    expect(fired).toEqual(['a@100', 'b@200']);
    expect(time.now()).toBe(249);
  });

  it('runs timers set by timers, and promise continuations between them', async () => {
    const time = new ManualTime(0);
    const fired: number[] = [];
    const tick = () => {
      fired.push(time.now());
      void Promise.resolve().then(() => time.setTimeout(tick, 1_000));
    };
    time.setTimeout(tick, 1_000);
    await time.advance(3_500);
    expect(fired).toEqual([1_000, 2_000, 3_000]);
    expect(time.pending).toBe(1);
  });
});
