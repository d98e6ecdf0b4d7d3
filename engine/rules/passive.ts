import { boostCatalogue, boostKeys, economy, firstItemKey, lastItemKey, passiveItemKeys, type BoostKey } from './economy.ts';
import { money, roundCents, zero, type Money } from './money.ts';
import { canAfford, priceOf } from './prices.ts';

/** Levels by boost key as the status call sends them (`passiveEarnLevel`, key 3 is Finger). */
export type LevelMap = Readonly<Partial<Record<number | string, number>>>;

export const levelOf = (levels: LevelMap, key: number): number => levels[key] ?? 0;

/** True when two level maps agree on every boost (an absent key is level 0). */
export const sameLevels = (a: LevelMap, b: LevelMap): boolean => boostKeys.every((key) => levelOf(a, key) === levelOf(b, key));

/** docs/rules.md §5: passive dollars per second = Σ perClick(k) × level(k) for k = 4..21. */
export const passivePerSecond = (levels: LevelMap): number => {
  let perSecond = 0;
  for (const key of passiveItemKeys) perSecond += boostCatalogue[key].perClick * levelOf(levels, key);
  return perSecond;
};

/**
 * Passive income accrued between lastClaimedMs and nowMs, capped at 3 h and rounded down to the
 * cent (docs/rules.md §2). A clock step back accrues nothing.
 */
export const passiveAccrued = (levels: LevelMap, lastClaimedMs: number, nowMs: number): Money => {
  const perSecond = passivePerSecond(levels);
  if (perSecond === 0) return zero;
  const elapsedMs = Math.min(Math.max(0, nowMs - lastClaimedMs), economy.offlineRewardCapMs);
  return roundCents(money(perSecond).times(elapsedMs).div(1_000), 'credit');
};

/** The highest passive key a player may buy now (§5), before affordability. */
export const passiveFrontierKey = (levels: LevelMap): number => {
  let highest = 0;
  for (const key of passiveItemKeys) if (levelOf(levels, key) > 0) highest = key;
  if (highest === 0) return firstItemKey;
  const next = levelOf(levels, highest) >= 5 ? highest + 1 : highest;
  return Math.min(next, lastItemKey);
};

export type LockReason = 'sequence' | 'unaffordable' | null;

/**
 * §5: a passive item is locked when its key is above the highest owned key (plus one once that
 * item is at level 5 or above), or when it is unaffordable. Locked stats show as ????.
 */
export const passiveLock = (
  key: BoostKey,
  levels: LevelMap,
  totalEarn: Money | string,
  autoEarn: Money | string,
): LockReason => {
  if (key > passiveFrontierKey(levels)) return 'sequence';
  if (!canAfford(priceOf(key, levelOf(levels, key)), totalEarn, autoEarn)) return 'unaffordable';
  return null;
};

/** The text shown for a locked item's stats (§5). */
export const lockedMask = '????';
