import { describe, expect, it } from 'vitest';
import { advanceTapClock, applyTaps, tapAllowance, tapRules, type TapRules } from './clicks.ts';
import { economy } from './economy.ts';

const t0 = 1_700_000_000_000;
const fresh = { energy: 500, energyAtMs: t0, energyLevel: 1, fingerLevel: 1, tapClockMs: t0 };

describe('human-rate allowance', () => {
  it('allows the burst at once and 20 taps per second after that', () => {
    expect(tapAllowance(t0, t0)).toBe(economy.humanTapBurst);
    expect(tapAllowance(t0, t0 + 1_000)).toBe(economy.humanTapBurst + economy.humanTapsPerSecond);
  });

  it('banks idle credit for the credit window only', () => {
    const long = tapAllowance(t0, t0 + 3_600_000);
    const windowTaps = (economy.humanTapCreditWindowMs / 1_000) * economy.humanTapsPerSecond;
    expect(long).toBe(economy.humanTapBurst + windowTaps);
  });

  it('spends credit per tap, so many small batches cannot each take the burst', () => {
    let clock = t0;
    let total = 0;
    for (let i = 0; i < 100; i++) {
      const now = t0 + i * 10;
      const ok = Math.min(40, tapAllowance(clock, now));
      total += ok;
      clock = advanceTapClock(clock, now, ok);
    }
    // 1 s of batches: at most the burst plus 20 taps/s (+1 for rounding).
    expect(total).toBeLessThanOrEqual(economy.humanTapBurst + economy.humanTapsPerSecond + 1);
  });

  it('gives nothing extra after the clock steps back', () => {
    expect(tapAllowance(t0, t0 - 60_000)).toBe(0);
  });
});

describe('applyTaps', () => {
  it('accepts min(requested, energy, allowance) and earns fingerLevel per tap', () => {
    const r = applyTaps({ ...fresh, fingerLevel: 3 }, 10, t0);
    expect(r.accepted).toBe(10);
    expect(r.earned).toBe(30);
    expect(r.energy).toBe(490);
  });

  it('is capped by energy', () => {
    const r = applyTaps({ ...fresh, energy: 5 }, 30, t0);
    expect(r.accepted).toBe(5);
    expect(r.energy).toBe(0);
  });

  it('is capped by the allowance', () => {
    expect(applyTaps(fresh, 400, t0).accepted).toBe(economy.humanTapBurst);
  });

  it('refuses every tap with no energy and changes nothing', () => {
    const r = applyTaps({ ...fresh, energy: 0 }, 10, t0);
    expect(r).toEqual({ accepted: 0, refusedBy: 'energy', earned: 0, energy: 0, energyAtMs: t0, tapClockMs: t0 });
  });
});

describe('applyTaps: the edges', () => {
  const rules = (over: Partial<TapRules>): TapRules => ({ ...tapRules, ...over });

  it('accepts all requested taps when energy and allowance suffice, and says nothing was refused', () => {
    expect(applyTaps(fresh, 40, t0)).toMatchObject({ accepted: 40, refusedBy: null, earned: 40, energy: 460, tapClockMs: t0 + 2_000 });
  });

  it('takes the energy of each accepted tap: energyPerTap > 1', () => {
    const r = applyTaps({ ...fresh, fingerLevel: 2 }, 10, t0, rules({ energyPerTap: 3 }));
    expect(r).toMatchObject({ accepted: 10, refusedBy: null, earned: 20, energy: 470 });
  });

  it('accepts only the taps whole energy pays for (energy shortfall with energyPerTap > 1)', () => {
    const r = applyTaps({ ...fresh, energy: 11 }, 10, t0, rules({ energyPerTap: 3 }));
    // 11 energy pays for 3 taps of 3; the 2 left over stay.
    expect(r).toMatchObject({ accepted: 3, refusedBy: 'energy', earned: 3, energy: 2 });
  });

  it('refuses a tap when energy is above 0 but below energyPerTap', () => {
    const r = applyTaps({ ...fresh, energy: 2 }, 1, t0, rules({ energyPerTap: 3 }));
    expect(r).toEqual({ accepted: 0, refusedBy: 'energy', earned: 0, energy: 2, energyAtMs: t0, tapClockMs: t0 });
  });

  it('counts the energy regenerated since energyAtMs, and keeps the partial 5 s interval', () => {
    // 2 stored + 3 regenerated over 17 s = 5; 2 s of the next interval are kept.
    const r = applyTaps({ ...fresh, energy: 2, energyAtMs: t0 - 17_000 }, 9, t0);
    expect(r).toMatchObject({ accepted: 5, refusedBy: 'energy', energy: 0, energyAtMs: t0 - 2_000 });
  });

  it('clips at the allowance: the rate refuses the rest, energy is spent only for accepted taps', () => {
    const r = applyTaps(fresh, 50, t0);
    expect(r).toMatchObject({ accepted: economy.humanTapBurst, refusedBy: 'rate', earned: economy.humanTapBurst, energy: 500 - economy.humanTapBurst });
    // The clock moved 50 ms a tap: the next batch at once gets nothing.
    expect(r.tapClockMs).toBe(t0 + economy.humanTapBurst * 50);
    expect(applyTaps({ ...fresh, ...r }, 1, t0)).toMatchObject({ accepted: 0, refusedBy: 'rate', earned: 0 });
  });

  it('clips at the allowance after the idle credit window, not beyond it', () => {
    const credit = (economy.humanTapCreditWindowMs / 1_000) * economy.humanTapsPerSecond + economy.humanTapBurst;
    const r = applyTaps({ ...fresh, tapClockMs: t0 - 3_600_000 }, 300, t0);
    expect(r).toMatchObject({ accepted: credit, refusedBy: 'rate' });
  });

  it('names energy when energy and the allowance both refuse taps', () => {
    expect(applyTaps({ ...fresh, energy: 10 }, 100, t0)).toMatchObject({ accepted: 10, refusedBy: 'energy' });
  });

  it('names the rate when the allowance is below the energy', () => {
    expect(applyTaps({ ...fresh, energy: 45 }, 45, t0)).toMatchObject({ accepted: economy.humanTapBurst, refusedBy: 'rate' });
  });

  it('accepts nothing for a request of 0 or less and changes nothing', () => {
    expect(applyTaps(fresh, 0, t0)).toEqual({ accepted: 0, refusedBy: null, earned: 0, energy: 500, energyAtMs: t0, tapClockMs: t0 });
    expect(applyTaps(fresh, -3, t0).accepted).toBe(0);
  });

  it('runs the allowance on the rules given', () => {
    const slow = rules({ humanTapsPerSecond: 4, humanTapBurst: 2, humanTapCreditWindowMs: 1_000 });
    expect(tapAllowance(t0, t0 + 1_000, slow)).toBe(6);
    expect(tapAllowance(t0, t0 + 60_000, slow)).toBe(6);
    expect(advanceTapClock(t0, t0, 3, slow)).toBe(t0 + 750);
  });
});
