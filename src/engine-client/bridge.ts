import { batch, type Signal } from '@preact/signals-react';
import * as Comlink from 'comlink';
import { retryDelayMs } from '../../engine/client/retry.ts';
import type { EngineActions, EngineSnapshot, StatusUpdate } from '../../engine/client/snapshot.ts';
import type { EngineWorkerApi } from '../../engine/client/worker.ts';
import {
  $autoEarn,
  $balance,
  $clickValue,
  $energy,
  $energyLevel,
  $fingerLevel,
  $levels,
  $maxEnergy,
  $message,
  $offlineReward,
  $online,
  $passivePerSecond,
  $pendingTaps,
  $ready,
  $status,
  $tapStreak,
  $totalClick,
  $totalEarn,
  $totalMoney,
  emptySnapshot,
  noStatus,
} from './signals.ts';
import type { KeyValueStore } from '../../engine/client/ports.ts';
import { openDeviceStorage } from '../telegram.ts';
import { loadDeviceId } from './device-id.ts';

export interface StartEngineOptions {
  /** The API base (PublicConfig.apiBase). */
  apiBase: string;
  /** Telegram's raw init data; the worker sends it as `Authorization`. */
  initData: string;
  /** The device id the worker sends as `x-device-id` (./device-id.ts); by default this device's stored one. */
  deviceId?: string;
  /**
   * Opens the client's device storage, where the unsent taps and the device id live; null keeps
   * them in web storage. By default Telegram's DeviceStorage on 9.0+ clients (src/telegram.ts).
   */
  openDeviceStorage?: () => Promise<KeyValueStore | null>;
}

/** Makes the engine's worker; tests pass their own (e.g. one whose fetch is a fake server). */
export type WorkerFactory = () => Worker;

const defaultWorker: WorkerFactory = () => new Worker(new URL('../../engine/client/worker.ts', import.meta.url), { type: 'module' });

let running: { worker: Worker; remote: Comlink.Remote<EngineWorkerApi> } | null = null;
// Bumped by every start and stop: a worker made again after a failed load belongs to one start.
let generation = 0;

/** The snapshot fields that are one plain value each, with the signal that shows it (every one has one). */
type ValueField = Exclude<keyof EngineSnapshot, 'version' | 'levels' | 'message'>;
const valueSignals: { [K in ValueField]: Signal<EngineSnapshot[K]> } = {
  ready: $ready,
  online: $online,
  totalEarn: $totalEarn,
  autoEarn: $autoEarn,
  balance: $balance,
  totalMoney: $totalMoney,
  energy: $energy,
  maxEnergy: $maxEnergy,
  clickValue: $clickValue,
  passivePerSecond: $passivePerSecond,
  fingerLevel: $fingerLevel,
  energyLevel: $energyLevel,
  totalClick: $totalClick,
  tapStreak: $tapStreak,
  pendingTaps: $pendingTaps,
  offlineReward: $offlineReward,
};
const valueFields = Object.keys(valueSignals) as ValueField[];

const sameLevels = (a: Record<string, number>, b: Record<string, number>): boolean => {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => a[k] === b[k]);
};

/**
 * Writes a snapshot into the signals in one batch, each only when its value changed, so a tap
 * re-renders the energy bar and the balance, not the whole screen.
 */
export const applySnapshot = (s: EngineSnapshot): void =>
  batch(() => {
    for (const field of valueFields) {
      const target = valueSignals[field] as Signal<unknown>;
      if (target.peek() !== s[field]) target.value = s[field];
    }
    if (!sameLevels($levels.peek(), s.levels)) $levels.value = s.levels;
    if ($message.peek()?.id !== s.message?.id) $message.value = s.message;
  });

/** Writes the engine's status into `$status` (it arrives only when a whole new status came). */
export const applyStatus = (update: StatusUpdate): void => {
  $status.value = update;
};

/**
 * Starts the game engine in its worker (stopping one already running) and returns the actions
 * the UI calls. Snapshots flow into src/engine-client/signals.ts from then on.
 */
export const startEngine = (options: StartEngineOptions, createWorker: WorkerFactory = defaultWorker): EngineActions => {
  stopEngine();
  applySnapshot(emptySnapshot); // a new game is not ready until its first status answers
  applyStatus(noStatus);
  const started = generation;
  // The device storage answers asynchronously (and on 9.0 needs Telegram's script): the worker
  // loads its code meanwhile, and starts once the store and the device id are known.
  const storage = (options.openDeviceStorage ?? openDeviceStorage)()
    .catch(() => null)
    .then((opened) => loadDeviceId(opened));
  const launch = (attempt: number): void => {
    const worker = createWorker();
    const remote = Comlink.wrap<EngineWorkerApi>(worker);
    const engine = { worker, remote };
    running = engine;
    // A worker whose script did not load (a busy server's 503, a lost connection) fires `error`
    // and never answers: it is made again after the backoff (docs/mini-app.md "Lost files"). The
    // screens wait on the boot coin for the first status meanwhile, so no action is lost.
    let answered = false;
    worker.addEventListener('error', () => {
      if (answered || running !== engine) return;
      terminate();
      setTimeout(() => generation === started && launch(attempt + 1), retryDelayMs(attempt));
    });
    void remote.subscribe(Comlink.proxy(applySnapshot)).then(() => (answered = true));
    void remote.subscribeStatus(Comlink.proxy(applyStatus));
    storage
      .then(async ({ id, device }) => {
        if (running !== engine) return; // stopped, or made again, meanwhile
        const start = { apiBase: options.apiBase, initData: options.initData, deviceId: options.deviceId ?? id };
        await remote.start(start, device ? Comlink.proxy(device) : undefined);
      })
      .catch((error: unknown) => {
        console.error('game engine failed to start', error);
      });
  };
  launch(0);
  // Each action goes to this start's worker running now (one made again after a failed load, too).
  const remote = (): Comlink.Remote<EngineWorkerApi> | undefined => (generation === started ? running?.remote : undefined);
  const stopped = () => Promise.reject(new Error('the game engine is not running'));
  return {
    tap: (count) => remote()?.tap(count) ?? 0,
    upgrade: (levelKey) => remote()?.upgrade(levelKey) ?? stopped(),
    claim: () => remote()?.claim() ?? stopped(),
    refresh: () => remote()?.refresh() ?? stopped(),
  };
};

/** Stops the engine and terminates its worker; the signals keep their last values. */
export const stopEngine = (): void => {
  generation++;
  terminate();
};

const terminate = (): void => {
  if (!running) return;
  const { worker, remote } = running;
  running = null;
  remote[Comlink.releaseProxy]();
  worker.terminate();
};
