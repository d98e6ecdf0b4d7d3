import { boostCatalogue, referralLevels, type BoostKey } from './economy.ts';
import { money, Money, type MoneyInput } from './money.ts';

/**
 * Exact prices: base × (num/den)^level computed in BigInt cents and rounded up to the cent, so
 * 100 × 1.5^5047 (about 10^890) and 500 × 2^5059 (about 10^1525) are exact and take microseconds.
 */
const priceCache = new Map<number, Money>();
const priceCacheLimit = 4_096;
const cacheKey = (key: BoostKey, level: number): number => level * 32 + key;

const exactPrice = (key: BoostKey, level: number): Money => {
  const { basePriceDollars, priceGrowth } = boostCatalogue[key];
  const numerator = BigInt(basePriceDollars) * 100n * BigInt(priceGrowth.num) ** BigInt(level);
  const denominator = BigInt(priceGrowth.den) ** BigInt(level);
  const centsUp = (numerator + denominator - 1n) / denominator;
  return new Money(centsUp.toString()).div(100);
};

/** The price in dollars to buy the next level of a boost from `level` (spec §9). */
export const priceOf = (key: BoostKey, level: number): Money => {
  if (!Number.isInteger(level) || level < 0) throw new RangeError(`level must be a whole number ≥ 0, got ${level}`);
  const k = cacheKey(key, level);
  let price = priceCache.get(k);
  if (price === undefined) {
    price = exactPrice(key, level);
    if (priceCache.size >= priceCacheLimit) priceCache.delete(priceCache.keys().next().value as number);
    priceCache.set(k, price);
  }
  return price;
};

/** True when a boost is at its maximum purchasable level. */
export const isMaxLevel = (key: BoostKey, level: number): boolean => level >= boostCatalogue[key].maxLevel;

/** True when a price is within the spendable balance totalEarn + autoEarn (§5). */
export const canAfford = (price: MoneyInput, totalEarn: MoneyInput, autoEarn: MoneyInput): boolean =>
  money(price).lte(money(totalEarn).plus(money(autoEarn)));

/** The referral level after `level`, or undefined at the top of the table. */
export const nextReferralLevel = (level: number) => referralLevels.find((r) => r.level === level + 1);

/** The friend limit at a referral level (level 1 when unknown). */
export const friendLimit = (level: number): number =>
  (referralLevels.find((r) => r.level === level) ?? referralLevels[0]!).friendLimit;

/** §5: a referral upgrade is possible when a next level exists and totalMoney covers its price. */
export const canUpgradeReferral = (level: number, totalMoney: MoneyInput): boolean => {
  const next = nextReferralLevel(level);
  return next !== undefined && money(totalMoney).gte(next.priceMoney);
};
