import type { UserStatus } from '../wire/api-types.ts';
import type { Refusal } from '../wire/refusals.ts';

/**
 * What the worker engine pushes to the UI, at most once per animation frame: plain,
 * structured-cloneable data, amounts as decimal strings, at most 4 KiB.
 */
export interface EngineSnapshot {
  /** Increases with every snapshot posted. */
  version: number;
  /** False until the first status call has answered. */
  ready: boolean;
  /** False while the transport is failing; taps keep counting against the local energy model. */
  online: boolean;
  /** Dollars banked by the server plus taps not yet acknowledged (§3 totalEarn). */
  totalEarn: string;
  /** Passive dollars accrued since the last claim (§3 autoEarn). */
  autoEarn: string;
  /** Spendable balance: totalEarn + autoEarn. */
  balance: string;
  /** The MONEY token balance. */
  totalMoney: string;
  energy: number;
  maxEnergy: number;
  /** Dollars per tap (= fingerLevel). */
  clickValue: number;
  /** Passive dollars per second. */
  passivePerSecond: number;
  fingerLevel: number;
  energyLevel: number;
  /** Levels of keys 3–21 (passiveEarnLevel). */
  levels: Record<string, number>;
  totalClick: number;
  /** Taps in the current streak; resets after 3 s idle (§9). */
  tapStreak: number;
  /** Taps applied locally and not yet acknowledged by the server. */
  pendingTaps: number;
  /**
   * The "Money Dream" popup's amount: the offline reward of the load's first status (what accrued
   * while the player was away), '0' once any claim has banked it; income earned during the session
   * never shows here.
   */
  offlineReward: string;
  /** The last user-facing message (e.g. "You don't have enough energy to click!"), with an id to dedupe. */
  message: { id: number; text: string } | null;
}

/**
 * The player's status as the server last gave it whole (the status call, a claim, an upgrade; not
 * the click acknowledgements, whose changes the snapshot carries). The engine is the page's one
 * owner of it (docs/architecture.md) and pushes it whenever it changes.
 */
export interface StatusUpdate {
  status: UserStatus | null;
  /** True while there is no status because the last attempt to load it failed (§2 step 1). */
  failed: boolean;
}

/**
 * The outcome of an engine action: its §8 message, and when the server refused it, the server's
 * refusal with its code and field (docs/api.md "Errors") for the mini-app to translate.
 */
export type ActionResult = { ok: boolean } & Refusal;

/** The calls the UI makes on the engine (through comlink in the browser). */
export interface EngineActions {
  /** Applies `count` taps at once (multi-touch may send several). Returns how many were applied. */
  tap(count: number): Promise<number> | number;
  /** Claims offline income, then buys one level of a boost key. Resolves with the server's refusal when refused. */
  upgrade(levelKey: number): Promise<ActionResult>;
  /** Claims passive income now (the 90 s timer also does it). */
  claim(): Promise<ActionResult>;
  /** Reloads the status from the server and reconciles. */
  refresh(): Promise<void>;
}
