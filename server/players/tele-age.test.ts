import { describe, expect, it } from 'vitest';
import { estimateCreatedMs, teleAgeDays } from './tele-age.ts';

const now = Date.UTC(2026, 0, 1);

describe('teleAge', () => {
  it('interpolates between known points', () => {
    // Halfway between 1_972_424_006 (1631669400 s) and 2_078_711_279 (1634321820 s).
    const mid = (1_972_424_006 + 2_078_711_279) / 2;
    expect(estimateCreatedMs(mid, now)).toBe(Math.round(((1_631_669_400 + 1_634_321_820) / 2) * 1_000));
  });

  it('grows with account age: older (smaller) ids are older accounts', () => {
    expect(teleAgeDays(100_000_000, now)).toBeGreaterThan(teleAgeDays(1_000_000_000, now));
    expect(teleAgeDays(1_000_000_000, now)).toBeGreaterThan(teleAgeDays(7_000_000_000, now));
  });

  it('clamps to the first point below the table and never dates an account after now', () => {
    expect(estimateCreatedMs(1, now)).toBe(1_383_264_000_000);
    expect(teleAgeDays(99_000_000_000, now)).toBe(0);
  });
});
