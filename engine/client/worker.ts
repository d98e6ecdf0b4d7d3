import * as Comlink from 'comlink';
import { createFetchTransport } from './adapters/fetch-transport.ts';
import { deviceTapKey, deviceTapStore, KeyValueTapStore } from './adapters/device-tap-store.ts';
import { openTapStore } from './adapters/indexed-db-tap-store.ts';
import { platformRequestFrame, randomId, realClock, realScheduler } from './adapters/real-time.ts';
import { Engine } from './engine.ts';
import { messages } from '../wire/messages.ts';
import type { KeyValueStore, TapStore } from './ports.ts';
import type { ActionResult, EngineSnapshot, StatusUpdate } from './snapshot.ts';

/** What the worker is given at start: the API base, Telegram's raw init data and the device id (docs/airdrop.md). */
export interface EngineStartOptions {
  apiBase: string;
  initData: string;
  deviceId?: string;
}

/** The engine as the page sees it through comlink (every call becomes a promise there). */
export interface EngineWorkerApi {
  /**
   * Starts the engine; resolves once the first status has answered. Ignored while one runs.
   * `device` is the client's device storage where it has one (a `Comlink.proxy` of the page's
   * DeviceStorage, src/telegram.ts): the unsent taps live there, web storage serving when it fails.
   */
  start(options: EngineStartOptions, device?: KeyValueStore): Promise<void>;
  /** Pushes a snapshot at most once per frame to `listener` (a `Comlink.proxy`); stop() forgets it. */
  subscribe(listener: (snapshot: EngineSnapshot) => void): void;
  /** Pushes the server's status to `listener` (a `Comlink.proxy`) whenever a whole new one arrives. */
  subscribeStatus(listener: (update: StatusUpdate) => void): void;
  getSnapshot(): EngineSnapshot | null;
  tap(count: number): number;
  upgrade(levelKey: number): Promise<ActionResult>;
  claim(): Promise<ActionResult>;
  refresh(): Promise<void>;
  stop(): void;
  /** Answers at once; the benchmarks time the comlink round trip with it. */
  ping(value: number): number;
}

/** Where the taps are kept: the client's device storage, IndexedDB behind it; else IndexedDB alone (docs/engine.md "Persistence"). */
const tapStoreFor = (initData: string, device: KeyValueStore | undefined): TapStore =>
  device ? deviceTapStore(new KeyValueTapStore(device, deviceTapKey(initData)), openTapStore(initData)) : openTapStore(initData);

/** One engine per worker, with the worker's real clock, timers, fetch and IndexedDB. */
export const createWorkerApi = (): EngineWorkerApi => {
  let engine: Engine | null = null;
  // Subscriptions made before start wait here for the engine.
  const waiting: ((engine: Engine) => void)[] = [];
  const whenStarted = (subscribe: (engine: Engine) => void) => (engine ? subscribe(engine) : waiting.push(subscribe));
  // The network came back: send waiting taps now rather than at the next backoff step.
  globalThis.addEventListener?.('online', () => engine?.retryNow());
  return {
    async start({ apiBase, initData, deviceId }, device) {
      if (engine) return;
      engine = new Engine({
        clock: realClock,
        scheduler: realScheduler,
        transport: createFetchTransport({ apiBase, initData, ...(deviceId !== undefined ? { deviceId } : {}) }),
        store: tapStoreFor(initData, device),
        newId: randomId,
        requestFrame: platformRequestFrame(),
      });
      for (const subscribe of waiting.splice(0)) subscribe(engine);
      await engine.start();
    },
    subscribe: (listener) => void whenStarted((e) => e.subscribe(listener)),
    subscribeStatus: (listener) => void whenStarted((e) => e.subscribeStatus(listener)),
    getSnapshot: () => engine?.getSnapshot() ?? null,
    tap: (count) => engine?.tap(count) ?? 0,
    // Before start there is no game yet: the §8 failure, like an engine that is not ready.
    upgrade: (levelKey) => engine?.upgrade(levelKey) ?? Promise.resolve({ ok: false, message: messages.somethingWrong }),
    claim: () => engine?.claim() ?? Promise.resolve({ ok: false, message: messages.somethingWrong }),
    refresh: () => engine?.refresh() ?? Promise.resolve(),
    stop() {
      engine?.stop();
      engine = null;
    },
    ping: (value) => value,
  };
};

/** Exposes a fresh engine on `endpoint` (the worker's own scope by default). The only expose of the app. */
export const exposeEngine = (endpoint?: Comlink.Endpoint): void => Comlink.expose(createWorkerApi(), endpoint);

// In a browser worker, expose at load. Node's worker_threads have no WorkerGlobalScope; their
// entry (tests, benchmarks) calls exposeEngine with comlink's node adapter instead.
if (typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined') exposeEngine();
