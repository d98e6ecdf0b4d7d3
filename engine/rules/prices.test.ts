import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boostCatalogue, boostKeys, type BoostKey } from './economy.ts';
import { money } from './money.ts';
import { canAfford, canUpgradeReferral, friendLimit, isMaxLevel, nextReferralLevel, priceOf } from './prices.ts';

describe('prices', () => {
  it('follows spec §9: Handheld 15 × 2^level, Energy 500 × 2^level, Finger 100 × 1.5^level, items base × 1.5^level', () => {
    expect(priceOf(1, 0).toFixed()).toBe('15');
    expect(priceOf(1, 3).toFixed()).toBe('120');
    expect(priceOf(2, 1).toFixed()).toBe('1000');
    expect(priceOf(3, 2).toFixed()).toBe('225');
    expect(priceOf(4, 1).toFixed()).toBe('412.5');
    expect(priceOf(21, 1).toFixed()).toBe('3240000000000000');
  });

  it('rounds up to the cent', () => {
    // 275 × 1.5^3 = 928.125 → 928.13; 100 × 1.5^5 = 759.375 → 759.38
    expect(priceOf(4, 3).toFixed()).toBe('928.13');
    expect(priceOf(3, 5).toFixed()).toBe('759.38');
  });

  it('is exact at the maximum levels (about 10^1525)', () => {
    const handheld = priceOf(1, 5_059);
    expect(handheld.toFixed()).toBe((15n * 2n ** 5_059n).toString());
    const finger = priceOf(3, boostCatalogue[3].maxLevel);
    const num = 100n * 3n ** 5_047n * 100n;
    const den = 2n ** 5_047n;
    const cents = (num + den - 1n) / den;
    expect(finger.times(100).toFixed()).toBe(cents.toString());
    expect(priceOf(2, 5_059).toFixed().length).toBe(1_526);
  });

  it('rises strictly with level for every key', () => {
    fc.assert(
      fc.property(fc.constantFrom(...boostKeys), fc.integer({ min: 0, max: 5_000 }), (key: BoostKey, level) => {
        expect(priceOf(key, level + 1).gt(priceOf(key, level))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a negative or fractional level', () => {
    expect(() => priceOf(1, -1)).toThrow(RangeError);
    expect(() => priceOf(4, 1.5)).toThrow(RangeError);
  });

  it('knows the maximum levels: Finger 5047, Handheld and Energy 5059', () => {
    expect(isMaxLevel(3, 5_046)).toBe(false);
    expect(isMaxLevel(3, 5_047)).toBe(true);
    expect(isMaxLevel(1, 5_059)).toBe(true);
    expect(isMaxLevel(2, 5_058)).toBe(false);
  });

  it('affords a price against totalEarn + autoEarn', () => {
    expect(canAfford('100', '60', '40')).toBe(true);
    expect(canAfford('100.01', '60', '40')).toBe(false);
    expect(canAfford(money('1e1500'), money('1e1500').minus(1), '1')).toBe(true);
  });
});

describe('referral levels', () => {
  it('upgrades while a next level exists and MONEY covers its price', () => {
    expect(nextReferralLevel(1)?.priceMoney).toBe(100);
    expect(canUpgradeReferral(1, '100')).toBe(true);
    expect(canUpgradeReferral(1, '99.99')).toBe(false);
    expect(canUpgradeReferral(14, '1000000')).toBe(false);
  });

  it('gives the friend limit of a level', () => {
    expect(friendLimit(1)).toBe(10);
    expect(friendLimit(14)).toBe(100_000);
  });
});
