import type { ClaimResult, ClickResult, UserStatus } from '../wire/api-types.ts';
import type { Refusal, RefusalCode } from '../wire/refusals.ts';

/** The engine's only source of time (epoch ms on the device). */
export interface Clock {
  now(): number;
}

/** An opaque timer handle from a Scheduler. */
export type TimerHandle = unknown;

/** setTimeout/clearTimeout over the injected clock, so tests can step time instead of sleeping. */
export interface Scheduler {
  setTimeout(callback: () => void, delayMs: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** The answer to `POST /update-level`: the fresh status, or the server's refusal (its message, code and field). */
export type UpdateLevelResult = { ok: true; status: UserStatus } | ({ ok: false } & Refusal);

/**
 * The server calls the engine makes (spec §7). Methods reject with a TransportError when the call
 * did not get a usable answer (network failure or a non-2xx status).
 */
export interface Transport {
  getStatus(): Promise<UserStatus>;
  click(payload: TapBatch): Promise<ClickResult>;
  claim(): Promise<ClaimResult>;
  updateLevel(levelKey: number): Promise<UpdateLevelResult>;
}

/**
 * A failed call. `retryable` is false only when the server judged the request itself bad (a 4xx
 * other than 401, 403, 408 and 429): sending it again cannot succeed. `code` and `field` are the
 * server's refusal code and field when it sent them (docs/api.md "Errors").
 */
export class TransportError extends Error {
  readonly code?: RefusalCode;
  readonly field?: string;
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryable: boolean,
    refusal: Omit<Refusal, 'message'> = {},
  ) {
    super(message);
    this.name = 'TransportError';
    if (refusal.code !== undefined) this.code = refusal.code;
    if (refusal.field !== undefined) this.field = refusal.field;
  }
}

/** True for the HTTP statuses worth retrying: none (network), 401/403 (init data refresh), 408, 429, 5xx. */
export const isRetryableStatus = (status: number | null): boolean =>
  status === null || status >= 500 || status === 401 || status === 403 || status === 408 || status === 429;

/** A batch of taps with its idempotency key, as sent in `POST /click`. */
export interface TapBatch {
  readonly batchId: string;
  readonly seq: number;
  readonly click: number;
  /**
   * The device's clock (ms) at the batch's first tap (docs/airdrop.md "Integrity review": the
   * review judges a player's rhythm from it, so a slow server neither hides nor invents one).
   * Absent on batches a previous version saved.
   */
  readonly firstTapMs?: number;
}

/** What survives a reload: batches not yet acknowledged, and taps not yet put in a batch. */
export interface PendingTapsRecord {
  batches: TapBatch[];
  unsent: number;
  /**
   * The batchId and seq the unsent taps will be sent under. If the page dies after they were sent
   * but before the record of that batch was saved, the next start resends them under the same id,
   * which the server credits at most once.
   */
  next?: { batchId: string; seq: number };
}

/**
 * Keeps unacknowledged taps across reloads: Telegram's DeviceStorage on clients that have it, else
 * IndexedDB in the browser, memory elsewhere (docs/engine.md "Persistence").
 */
export interface TapStore {
  load(): Promise<PendingTapsRecord | null>;
  save(record: PendingTapsRecord): Promise<void>;
}

/**
 * A store of strings by key that the page lends the engine: Telegram's DeviceStorage (Bot API 9.0)
 * through src/telegram.ts. Every call is asynchronous and may fail or not answer in time; it
 * rejects then, and the caller falls back to web storage (docs/engine.md "Persistence").
 */
export interface KeyValueStore {
  /** The stored value, or null when the key holds none. */
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
  remove(key: string): Promise<void>;
}

/** Makes a unique batch id (randomness is injected: the engine never calls Math.random). */
export type IdGenerator = () => string;
