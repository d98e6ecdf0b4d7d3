import { describe, expect, it } from 'vitest';
import { boostLevel, isBoostKey, upgradeRefusal } from './upgrades.ts';

const starter = { fingerLevel: 1, energyLevel: 1, passiveEarnLevel: {} };

describe('upgrade rules (§5)', () => {
  it('reads each key’s level from where the status keeps it', () => {
    const owned = { fingerLevel: 4, energyLevel: 2, passiveEarnLevel: { 3: 7, 9: 1 } };
    expect([boostLevel(owned, 1), boostLevel(owned, 2), boostLevel(owned, 3), boostLevel(owned, 9), boostLevel(owned, 10)]).toEqual([4, 2, 7, 1, 0]);
  });

  it('disables an upgrade whose price is above totalEarn + autoEarn', () => {
    expect(upgradeRefusal(1, starter, '29.99', '0')).toBe('unaffordable');
    expect(upgradeRefusal(1, starter, '20', '10')).toBeNull();
  });

  it('disables an upgrade at the maximum level', () => {
    expect(upgradeRefusal(3, { ...starter, passiveEarnLevel: { 3: 5_047 } }, '1e2000', '0')).toBe('max-level');
    expect(upgradeRefusal(1, { ...starter, fingerLevel: 5_059 }, '1e2000', '0')).toBe('max-level');
  });

  it('refuses a sequence-locked passive item', () => {
    expect(upgradeRefusal(6, starter, '1e30', '0')).toBe('locked');
  });

  it('knows the catalogue keys', () => {
    expect(isBoostKey(21)).toBe(true);
    expect(isBoostKey(22)).toBe(false);
    expect(isBoostKey(1.5)).toBe(false);
    expect(isBoostKey('1')).toBe(false);
  });
});
