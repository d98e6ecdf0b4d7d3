import { economy } from './economy.ts';
import { availableEnergy, clickValue, spendEnergy } from './energy.ts';

/**
 * The human-rate allowance (docs/rules.md §4): about 20 taps per second since the previous batch plus a
 * small burst. Kept as a "tap clock" (a virtual time that moves 50 ms per accepted tap) so many
 * small batches cannot each claim the burst, while idle time earns credit for at most
 * humanTapCreditWindowMs (taps that arrive late after a network blip still count).
 */
const msPerTap = 1_000 / economy.humanTapsPerSecond;

const creditBase = (tapClockMs: number, nowMs: number): number => Math.max(tapClockMs, nowMs - economy.humanTapCreditWindowMs);

/** Taps a human could have made by nowMs, given the tap clock. */
export const tapAllowance = (tapClockMs: number, nowMs: number): number =>
  Math.max(0, Math.floor((nowMs - creditBase(tapClockMs, nowMs)) / msPerTap) + economy.humanTapBurst);

/** The tap clock after `accepted` taps at nowMs. */
export const advanceTapClock = (tapClockMs: number, nowMs: number, accepted: number): number =>
  creditBase(tapClockMs, nowMs) + Math.ceil(accepted * msPerTap);

/** The stored click state of a player (the columns a click batch reads and writes). */
export interface TapState {
  energy: number;
  energyAtMs: number;
  energyLevel: number;
  fingerLevel: number;
  tapClockMs: number;
}

export interface TapOutcome {
  /** Taps accepted: min(requested, available energy, human-rate allowance). */
  accepted: number;
  /** Dollars earned: accepted × click value. */
  earned: number;
  energy: number;
  energyAtMs: number;
  tapClockMs: number;
}

/** Applies a click batch of `requested` taps at nowMs (server rule; the client predicts with it too). */
export const applyTaps = (state: TapState, requested: number, nowMs: number): TapOutcome => {
  const energyNow = availableEnergy(state.energy, state.energyAtMs, nowMs, state.energyLevel);
  const byEnergy = Math.floor(energyNow / economy.energyPerTap);
  const accepted = Math.max(0, Math.min(Math.floor(requested), byEnergy, tapAllowance(state.tapClockMs, nowMs)));
  if (accepted === 0) return { accepted, earned: 0, energy: state.energy, energyAtMs: state.energyAtMs, tapClockMs: state.tapClockMs };
  const spent = spendEnergy(state.energy, state.energyAtMs, nowMs, state.energyLevel, accepted * economy.energyPerTap);
  return {
    accepted,
    earned: accepted * clickValue(state.fingerLevel),
    energy: spent.energy,
    energyAtMs: spent.energyAtMs,
    tapClockMs: advanceTapClock(state.tapClockMs, nowMs, accepted),
  };
};
