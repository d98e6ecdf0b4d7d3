import { boostCatalogue, energyLimitKey, firstItemKey, handheldKey, type BoostKey } from './economy.ts';
import type { Money } from './money.ts';
import { levelOf, passiveFrontierKey, type LevelMap } from './passive.ts';
import { canAfford, isMaxLevel, priceOf } from './prices.ts';

/** The levels a player owns, as the status call reports them. */
export interface OwnedLevels {
  readonly fingerLevel: number;
  readonly energyLevel: number;
  readonly passiveEarnLevel: LevelMap;
}

/** The current level of any boost key: 1 is fingerLevel, 2 energyLevel, 3–21 passiveEarnLevel. */
export const boostLevel = (owned: OwnedLevels, key: BoostKey): number => {
  if (key === handheldKey) return owned.fingerLevel;
  if (key === energyLimitKey) return owned.energyLevel;
  return levelOf(owned.passiveEarnLevel, key);
};

export type UpgradeRefusal = 'max-level' | 'locked' | 'unaffordable';

/**
 * Why an upgrade is refused, or null when it may be bought (§5): at the maximum level, a
 * sequence-locked passive item, or a price above totalEarn + autoEarn. Client and server share it.
 */
export const upgradeRefusal = (
  key: BoostKey,
  owned: OwnedLevels,
  totalEarn: Money | string,
  autoEarn: Money | string,
): UpgradeRefusal | null => {
  const level = boostLevel(owned, key);
  if (isMaxLevel(key, level)) return 'max-level';
  if (key >= firstItemKey && key > passiveFrontierKey(owned.passiveEarnLevel)) return 'locked';
  if (!canAfford(priceOf(key, level), totalEarn, autoEarn)) return 'unaffordable';
  return null;
};

/** True for a key of the boost catalogue (1–21). */
export const isBoostKey = (value: unknown): value is BoostKey =>
  typeof value === 'number' && Number.isInteger(value) && value in boostCatalogue;
