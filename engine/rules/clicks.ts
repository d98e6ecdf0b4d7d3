import { economy } from './economy.ts';
import { availableEnergy, clickValue, spendEnergy } from './energy.ts';
import { tapMultiplier } from './shop.ts';

/**
 * The tap rule (spec §4 "Clicking", §9; docs/rules.md §3–§4): how many taps of a batch count and
 * what they earn. The server applies it to every click batch, the client predicts each tap with it
 * (engine/client/engine.ts) and the in-memory test server answers with it: one rule, three callers.
 */

/** The numbers the tap rule reads. */
export interface TapRules {
  /** Energy one tap spends (§4: 1). */
  readonly energyPerTap: number;
  /** The human-rate allowance: taps per second of credit, the burst on top, the idle credit window. */
  readonly humanTapsPerSecond: number;
  readonly humanTapBurst: number;
  readonly humanTapCreditWindowMs: number;
}

/** The game's tap rules: the economy table's numbers. Tests may run the rule with others. */
export const tapRules: TapRules = economy;

/**
 * The human-rate allowance (docs/rules.md §4): about 20 taps per second since the previous batch plus a
 * small burst. Kept as a "tap clock" (a virtual time that moves 50 ms per accepted tap) so many
 * small batches cannot each claim the burst, while idle time earns credit for at most
 * humanTapCreditWindowMs (taps that arrive late after a network blip still count).
 */
const msPerTap = (rules: TapRules): number => 1_000 / rules.humanTapsPerSecond;

const creditBase = (tapClockMs: number, nowMs: number, rules: TapRules): number =>
  Math.max(tapClockMs, nowMs - rules.humanTapCreditWindowMs);

/** Taps a human could have made by nowMs, given the tap clock. */
export const tapAllowance = (tapClockMs: number, nowMs: number, rules: TapRules = tapRules): number =>
  Math.max(0, Math.floor((nowMs - creditBase(tapClockMs, nowMs, rules)) / msPerTap(rules)) + rules.humanTapBurst);

/** The tap clock after `accepted` taps at nowMs. */
export const advanceTapClock = (tapClockMs: number, nowMs: number, accepted: number, rules: TapRules = tapRules): number =>
  creditBase(tapClockMs, nowMs, rules) + Math.ceil(accepted * msPerTap(rules));

/** Energy that `taps` taps spend. */
export const tapEnergy = (taps: number, rules: TapRules = tapRules): number => taps * rules.energyPerTap;

/** Dollars that `taps` taps earn at `fingerLevel` (§9: click value = fingerLevel; an integer), times a bought double-tap stretch's multiplier (engine/rules/shop.ts). */
export const tapEarnings = (taps: number, fingerLevel: number, multiplier = 1): number => taps * clickValue(fingerLevel) * multiplier;

/** The stored click state of a player (the columns a click batch reads and writes). */
export interface TapState {
  energy: number;
  energyAtMs: number;
  energyLevel: number;
  fingerLevel: number;
  tapClockMs: number;
  /** A bought double-tap stretch runs until then (epoch ms; absent or 0: none; docs/shop.md). */
  tapBoostUntilMs?: number;
}

export interface TapOutcome {
  /** Taps accepted: min(requested, available energy ÷ energyPerTap, human-rate allowance). */
  accepted: number;
  /**
   * Why fewer than requested were accepted: `energy` when energy alone refuses some (the client
   * then says §8 "You don't have enough energy to click!"), `rate` when only the allowance clips.
   */
  refusedBy: 'energy' | 'rate' | null;
  /** Dollars earned: accepted × click value. */
  earned: number;
  energy: number;
  energyAtMs: number;
  tapClockMs: number;
}

/** Applies a click batch of `requested` taps at nowMs: the server's rule, and the client's prediction of it. */
export const applyTaps = (state: TapState, requested: number, nowMs: number, rules: TapRules = tapRules): TapOutcome => {
  const wanted = Math.max(0, Math.floor(requested));
  const energyNow = availableEnergy(state.energy, state.energyAtMs, nowMs, state.energyLevel);
  const byEnergy = Math.floor(energyNow / rules.energyPerTap);
  const byRate = tapAllowance(state.tapClockMs, nowMs, rules);
  const accepted = Math.min(wanted, byEnergy, byRate);
  const refusedBy = accepted === wanted ? null : byEnergy < wanted ? 'energy' : 'rate';
  if (accepted === 0) return { accepted, refusedBy, earned: 0, energy: state.energy, energyAtMs: state.energyAtMs, tapClockMs: state.tapClockMs };
  const spent = spendEnergy(state.energy, state.energyAtMs, nowMs, state.energyLevel, tapEnergy(accepted, rules));
  return {
    accepted,
    refusedBy,
    earned: tapEarnings(accepted, state.fingerLevel, tapMultiplier(state.tapBoostUntilMs ?? 0, nowMs)),
    energy: spent.energy,
    energyAtMs: spent.energyAtMs,
    tapClockMs: advanceTapClock(state.tapClockMs, nowMs, accepted, rules),
  };
};
