import { describe, expect, it } from 'vitest';
import { advanceTapClock, applyTaps, tapAllowance } from './clicks.ts';
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
    expect(r).toEqual({ accepted: 0, earned: 0, energy: 0, energyAtMs: t0, tapClockMs: t0 });
  });
});
