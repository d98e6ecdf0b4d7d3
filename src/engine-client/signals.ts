import { computed, signal } from '@preact/signals-react';
import type { EngineSnapshot, StatusUpdate } from '../../engine/client/snapshot.ts';

/**
 * The one home of the game's signals. Only the bridge (src/engine-client/bridge.ts) writes them; components
 * read them (call `useSignals()` from '@preact/signals-react/runtime' in a component that reads
 * `.value`). Each field is its own signal, so a tap re-renders only what changed.
 */
export const emptySnapshot: EngineSnapshot = {
  version: 0,
  ready: false,
  online: true,
  totalEarn: '0',
  autoEarn: '0',
  balance: '0',
  totalMoney: '0',
  energy: 0,
  maxEnergy: 500,
  clickValue: 1,
  passivePerSecond: 0,
  fingerLevel: 1,
  energyLevel: 1,
  levels: {},
  totalClick: 0,
  tapStreak: 0,
  pendingTaps: 0,
  offlineReward: '0',
  message: null,
};

export const $ready = signal(emptySnapshot.ready);
export const $online = signal(emptySnapshot.online);
export const $totalEarn = signal(emptySnapshot.totalEarn);
export const $autoEarn = signal(emptySnapshot.autoEarn);
export const $balance = signal(emptySnapshot.balance);
export const $totalMoney = signal(emptySnapshot.totalMoney);
export const $energy = signal(emptySnapshot.energy);
export const $maxEnergy = signal(emptySnapshot.maxEnergy);
export const $clickValue = signal(emptySnapshot.clickValue);
export const $passivePerSecond = signal(emptySnapshot.passivePerSecond);
export const $fingerLevel = signal(emptySnapshot.fingerLevel);
export const $energyLevel = signal(emptySnapshot.energyLevel);
export const $levels = signal<Record<string, number>>(emptySnapshot.levels);
export const $totalClick = signal(emptySnapshot.totalClick);
export const $tapStreak = signal(emptySnapshot.tapStreak);
export const $pendingTaps = signal(emptySnapshot.pendingTaps);
export const $offlineReward = signal(emptySnapshot.offlineReward);
export const $message = signal<EngineSnapshot['message']>(emptySnapshot.message);

export const $energyRatio = computed(() => ($maxEnergy.value > 0 ? $energy.value / $maxEnergy.value : 0));

/** The page's one copy of the player's status, pushed by the engine (its owner) through the bridge. */
export const noStatus: StatusUpdate = { status: null, failed: false };
export const $status = signal<StatusUpdate>(noStatus);
