import { economy } from './economy.ts';

/** §9: energy maximum = 500 × energy level. */
export const maxEnergy = (energyLevel: number): number => economy.energyPerLevel * energyLevel;

/**
 * Energy available at `nowMs` from a stored (energy, energyAtMs) pair: +1 per 5 s up to the max
 * (docs/rules.md §3). Elapsed time before energyAtMs (a clock step back) regenerates nothing.
 */
export const availableEnergy = (energy: number, energyAtMs: number, nowMs: number, energyLevel: number): number => {
  const max = maxEnergy(energyLevel);
  if (energy >= max) return energy > max ? max : energy;
  const regenerated = Math.floor(Math.max(0, nowMs - energyAtMs) / economy.energyRegenIntervalMs);
  return Math.min(max, energy + regenerated);
};

/**
 * The stored pair after spending at `nowMs`: keeps the partial regen interval, so spending does
 * not reset the 5 s regen clock.
 */
export const spendEnergy = (
  energy: number,
  energyAtMs: number,
  nowMs: number,
  energyLevel: number,
  spent: number,
): { energy: number; energyAtMs: number } => {
  const available = availableEnergy(energy, energyAtMs, nowMs, energyLevel);
  if (spent > available) throw new RangeError(`cannot spend ${spent} energy, ${available} available`);
  const full = available >= maxEnergy(energyLevel);
  const partialMs = full ? 0 : Math.max(0, nowMs - energyAtMs) % economy.energyRegenIntervalMs;
  return { energy: available - spent, energyAtMs: nowMs - partialMs };
};

/** §9: a tap earns fingerLevel dollars. */
export const clickValue = (fingerLevel: number): number => fingerLevel;

/** §4: the auto-click amount is the Finger level capped at 53. */
export const autoClickAmount = (fingerBoostLevel: number): number => Math.min(fingerBoostLevel, economy.autoClickCap);

/** §4: the auto-click runs when energy ≥ auto-click amount × click amount. */
export const canAutoClick = (energy: number, fingerBoostLevel: number, fingerLevel: number): boolean => {
  const amount = autoClickAmount(fingerBoostLevel);
  return amount > 0 && energy >= amount * clickValue(fingerLevel);
};
