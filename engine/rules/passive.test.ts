import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { passiveItemKeys, type BoostKey } from './economy.ts';
import { passiveAccrued, passiveFrontierKey, passiveLock, passivePerSecond } from './passive.ts';
import { priceOf } from './prices.ts';

/** The §5 lock rule written the slow, literal way, to check the real one against. */
const naiveLocked = (key: number, levels: Record<number, number>, balance: number): boolean => {
  const owned = Object.entries(levels).filter(([k, l]) => Number(k) >= 4 && l > 0).map(([k]) => Number(k));
  let allowed: number;
  if (owned.length === 0) allowed = 4;
  else {
    const highest = Math.max(...owned);
    allowed = levels[highest]! >= 5 ? highest + 1 : highest;
  }
  const price = priceOf(key as BoostKey, levels[key] ?? 0).toNumber();
  return key > allowed || price > balance;
};

describe('passive income', () => {
  it('is Σ per-click × level over items 4–21', () => {
    expect(passivePerSecond({})).toBe(0);
    expect(passivePerSecond({ 3: 9, 4: 2, 5: 1, 21: 1 })).toBe(2 * 2 + 3 + 2_040);
  });

  it('accrues per second since the last claim, rounded down to the cent', () => {
    expect(passiveAccrued({ 4: 1 }, 0, 1_500).toFixed()).toBe('3');
    expect(passiveAccrued({ 5: 1 }, 0, 333).toFixed()).toBe('0.99');
  });

  it('caps the offline accrual at 3 hours', () => {
    const threeHours = 3 * 3_600_000;
    expect(passiveAccrued({ 4: 1 }, 0, threeHours * 5).toFixed()).toBe(String(2 * 3 * 3_600));
    expect(passiveAccrued({ 4: 1 }, 10_000, 0).toFixed()).toBe('0');
  });
});

describe('the passive lock rule (§5)', () => {
  it('opens only Piggy Bank to a new player', () => {
    expect(passiveFrontierKey({})).toBe(4);
    expect(passiveLock(4, {}, '1000', '0')).toBeNull();
    expect(passiveLock(5, {}, '1e30', '0')).toBe('sequence');
  });

  it('opens the next key once the highest owned item reaches level 5', () => {
    expect(passiveLock(5, { 4: 4 }, '1e30', '0')).toBe('sequence');
    expect(passiveLock(5, { 4: 5 }, '1e30', '0')).toBeNull();
  });

  it('locks an unaffordable item', () => {
    expect(passiveLock(4, {}, '274.99', '0')).toBe('unaffordable');
    expect(passiveLock(4, {}, '200', '75')).toBeNull();
  });

  it('matches a naive reference for random levels and balances', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom(...passiveItemKeys.map(String)), fc.integer({ min: 0, max: 12 }), { maxKeys: 6 }),
        fc.constantFrom(...passiveItemKeys),
        fc.integer({ min: 0, max: 2 ** 45 }),
        (raw, key, balance) => {
          const levels = Object.fromEntries(Object.entries(raw).map(([k, v]) => [Number(k), v]));
          const actual = passiveLock(key, levels, String(balance), '0') !== null;
          expect(actual).toBe(naiveLocked(key, levels, balance));
        },
      ),
      { numRuns: 500 },
    );
  });
});
