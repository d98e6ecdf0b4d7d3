import { boostCatalogue, economy, energyLimitKey, fingerKey, handheldKey, passiveItemKeys, type BoostKey } from '../../../engine/rules/economy.ts';
import { lockedMask, passiveLock } from '../../../engine/rules/passive.ts';
import { priceOf } from '../../../engine/rules/prices.ts';
import { formatMoney } from '../../../engine/rules/format.ts';
import { boostLevel, upgradeRefusal, type OwnedLevels, type UpgradeRefusal } from '../../../engine/rules/upgrades.ts';
import { $autoEarn, $energyLevel, $fingerLevel, $levels, $totalEarn } from '../../engine-client/signals.ts';
import type { Translate } from '../locale.ts';

/** §2 Booster tab order: Finger, Handheld, Energy Limit. */
export const boosterKeys: readonly BoostKey[] = [fingerKey, handheldKey, energyLimitKey];
export const itemKeys: readonly BoostKey[] = passiveItemKeys;

/** Shown names, in the active language; the catalogue calls key 2 "Limit", the Booster tab says what it limits. */
export const boostTitle = (_: Translate, key: BoostKey): string => (key === energyLimitKey ? _('app.boost.energyLimit') : _(`app.boost.${key}.title`));

/** Everything a boost card shows, from the engine's rules over the current signals (read in render). */
export interface BoostView {
  key: BoostKey;
  title: string;
  image: string;
  description: string;
  level: number;
  price: string;
  /** What one more level adds, e.g. "+13/s" or "+1 per tap"; ???? when locked (§5). */
  effect: string;
  refusal: UpgradeRefusal | null;
  /** §5: a locked passive item shows ???? for its stats. */
  masked: boolean;
  sequenceLocked: boolean;
}

const effectOf = (_: Translate, key: BoostKey): string => {
  if (key === handheldKey) return _('app.boost.effectPerTap', { amount: boostCatalogue[key].perClick });
  if (key === energyLimitKey) return _('app.boost.effectEnergy', { amount: economy.energyPerLevel });
  if (key === fingerKey) return _('app.boost.effectFinger', { seconds: economy.autoClickIntervalMs / 1000 });
  return _('app.ui.perSecond', { amount: formatMoney(boostCatalogue[key].perClick) });
};

export const readOwned = (): OwnedLevels => ({
  fingerLevel: $fingerLevel.value,
  energyLevel: $energyLevel.value,
  passiveEarnLevel: $levels.value,
});

export const boostView = (_: Translate, key: BoostKey): BoostView => {
  const owned = readOwned();
  const totalEarn = $totalEarn.value;
  const autoEarn = $autoEarn.value;
  const level = boostLevel(owned, key);
  const entry = boostCatalogue[key];
  const refusal = upgradeRefusal(key, owned, totalEarn, autoEarn);
  const lock = key >= 4 ? passiveLock(key, owned.passiveEarnLevel, totalEarn, autoEarn) : null;
  const masked = lock !== null;
  return {
    key,
    title: boostTitle(_, key),
    image: entry.image,
    description: _(`app.boost.${key}.description`),
    level,
    price: masked ? lockedMask : refusal === 'max-level' ? _('app.boost.max') : formatMoney(priceOf(key, level)),
    effect: masked ? lockedMask : effectOf(_, key),
    refusal,
    masked,
    sequenceLocked: lock === 'sequence',
  };
};
