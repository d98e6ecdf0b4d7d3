import { describe, expect, it } from 'vitest';
import { NamedTimers } from './named-timers.ts';
import { ManualTime } from './testing/manual-time.ts';

describe('named timers', () => {
  it('replaces a timer set again under its name, and forgets a name once it fired', async () => {
    const time = new ManualTime(0);
    const timers = new NamedTimers(time);
    const fired: string[] = [];
    timers.set('a', 100, () => fired.push('first'));
    timers.set('a', 200, () => fired.push('second'));
    timers.ensure('a', 50, () => fired.push('ensured'));
    await time.advance(150);
    expect(fired).toEqual([]);
    await time.advance(50);
    expect(fired).toEqual(['second']);
    expect(timers.has('a')).toBe(false);
  });

  it('repeats every period until stopped, then refuses new timers', async () => {
    const time = new ManualTime(0);
    const timers = new NamedTimers(time);
    let runs = 0;
    timers.every('tick', 1_000, () => runs++);
    await time.advance(3_000);
    expect(runs).toBe(3);
    timers.stop();
    timers.set('late', 10, () => runs++);
    await time.advance(5_000);
    expect(runs).toBe(3);
    expect(time.pending).toBe(0);
  });
});
