import { economy } from '../rules/economy.ts';
import { NamedTimers } from './named-timers.ts';
import { PendingTaps } from './pending-taps.ts';
import type { IdGenerator, Scheduler, TapBatch, TapStore, Transport } from './ports.ts';
import { TransportError } from './ports.ts';
import { retryDelayMs } from './retry.ts';
import type { UserStatus } from '../wire/api-types.ts';

/** Runs calls one at a time, in the order they were queued. */
export type Lane = <T>(call: () => Promise<T>) => Promise<T>;

/** A lane over one promise chain: a failed call does not stop the ones after it. */
export const serialLane = (): Lane => {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(call: () => Promise<T>): Promise<T> => {
    const result = tail.then(call);
    tail = result.catch(() => undefined);
    return result;
  };
};

export interface OutboxDeps {
  scheduler: Scheduler;
  transport: Transport;
  store: TapStore;
  newId: IdGenerator;
  clock: { now(): number };
  /** The lane every transport call of the engine shares, so a status answer covers exactly the acknowledged batches. */
  lane: Lane;
  /** False until the engine has its first status: batches wait until then. */
  canSend(): boolean;
  /** A batch was acknowledged; `fresh` is false when a retry may have repeated an older answer. */
  onAcknowledged(status: UserStatus, fresh: boolean): void;
  /** A batch the server will never credit was dropped; the engine reloads the status. */
  onDropped(): void;
  /** A send failed and will be retried after the backoff. */
  onFailure(error: unknown): void;
}

/**
 * The outgoing queue of taps (§9 batching): taps applied on the device are cut into batches with
 * a batchId and seq, persisted so a reload loses none, and sent one at a time, oldest first. A
 * failed send waits for the backoff (engine/client/retry.ts) and is retried under the same batchId, which
 * the server credits at most once (docs/rules.md §4).
 */
export class Outbox {
  private readonly pending = new PendingTaps();
  private readonly timers: NamedTimers;
  private saving: Promise<void> = Promise.resolve();
  private sending = false;
  private stopped = false;
  private retryAttempt = 0;
  private firstUnsentMs = 0;
  private lastUserTapMs = 0;

  constructor(private readonly deps: OutboxDeps) {
    this.timers = new NamedTimers(deps.scheduler);
  }

  /** Every tap not yet acknowledged: unsent ones and those in batches. */
  get count(): number {
    return this.pending.count;
  }

  /** Takes what a previous session left in the store; its unsent taps get their batch at once. */
  async restore(): Promise<void> {
    this.pending.restore(await this.deps.store.load().catch(() => null));
    this.pending.cut(this.deps.newId);
  }

  /** Records `n` taps applied at `now`; a user's own taps also restart the quiet period. */
  add(n: number, now: number, byUser: boolean): void {
    if (this.pending.unsent === 0) this.firstUnsentMs = now;
    if (byUser) this.lastUserTapMs = now;
    this.pending.add(n, now);
    this.timers.ensure('batch', economy.clickBatchDebounceMs, () => this.onBatchTimer());
    this.timers.ensure('persist', economy.unsentTapsPersistDelayMs, () => this.persist());
  }

  /** Cuts the unsent taps into a batch and sends now (before an upgrade, say). */
  flush(): void {
    this.cut();
    void this.send();
  }

  /** Sends waiting batches now instead of at the next retry (e.g. when the network comes back). */
  retryNow(): void {
    this.timers.clear('retry');
    void this.send();
  }

  stop(): void {
    this.stopped = true;
    this.timers.stop();
  }

  /** §9 debounce: a batch leaves 300 ms after the last tap, or 1 s after its first during a long run. */
  private onBatchTimer(): void {
    if (this.pending.unsent === 0) return;
    const now = this.deps.clock.now();
    const quietLeft = economy.clickBatchDebounceMs - (now - this.lastUserTapMs);
    const maxLeft = economy.clickBatchMaxWaitMs - (now - this.firstUnsentMs);
    const wait = Math.min(quietLeft, maxLeft);
    if (wait > 0) return this.timers.set('batch', wait, () => this.onBatchTimer());
    this.flush();
  }

  private cut(): void {
    this.timers.clear('batch');
    if (this.pending.cut(this.deps.newId)) this.persist();
  }

  /** Sends queued batches one at a time, oldest first; a failure waits for the backoff timer. */
  async send(): Promise<void> {
    if (this.sending || this.stopped || !this.deps.canSend() || this.timers.has('retry')) return;
    this.sending = true;
    try {
      for (let batch = this.pending.head; batch && !this.stopped; batch = this.pending.head) {
        if (!(await this.sendOne(batch))) return;
      }
    } finally {
      this.sending = false;
    }
  }

  /** One batch; false when sending must pause (stopped, or waiting for the backoff). */
  private async sendOne(batch: TapBatch): Promise<boolean> {
    try {
      const result = await this.deps.lane(() => this.deps.transport.click(batch));
      if (this.stopped) return false;
      this.settle(batch);
      // A retried batch may have been answered the first time with the answer lost; the server
      // then repeats that first, older status, so the engine asks for a fresh one.
      this.deps.onAcknowledged(result.status, this.retryAttempt === 0);
      this.retryAttempt = 0;
      return true;
    } catch (error) {
      if (this.stopped) return false;
      if (error instanceof TransportError && !error.retryable) {
        // The server judged the request itself bad: it will never credit it (docs/engine.md).
        this.settle(batch);
        this.deps.onDropped();
        return true;
      }
      this.deps.onFailure(error);
      this.timers.set('retry', retryDelayMs(this.retryAttempt++), () => void this.send());
      return false;
    }
  }

  private settle(batch: TapBatch): void {
    this.pending.settle(batch.batchId);
    this.persist();
  }

  private persist(): void {
    this.timers.clear('persist');
    // A stopped engine (the page reloading) must not overwrite what its successor writes.
    if (this.stopped) return;
    const record = this.pending.record(this.deps.newId);
    // Writes are chained so an older record never lands after a newer one.
    this.saving = this.saving.then(() => this.deps.store.save(record)).catch(() => undefined);
  }
}
