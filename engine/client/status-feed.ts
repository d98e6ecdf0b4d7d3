import type { UserStatus } from '../wire/api-types.ts';
import type { StatusUpdate } from './snapshot.ts';

/**
 * The server's whole statuses as the page hears them (the engine's subscribeStatus): the current
 * one at once, then each new one; with no status yet, that loading it failed (§2 step 1).
 */
export class StatusFeed {
  private readonly listeners = new Set<(update: StatusUpdate) => void>();
  private failed = false;

  constructor(private readonly current: () => UserStatus | null) {}

  subscribe(listener: (update: StatusUpdate) => void): () => void {
    this.listeners.add(listener);
    listener(this.update());
    return () => this.listeners.delete(listener);
  }

  /** A whole new status: any failure is over, `first` runs (the snapshot it makes), then every listener hears it. */
  publish(first: () => void): void {
    this.failed = false;
    first();
    this.notify();
  }

  /** A status load failed: with no status yet, the listeners hear it once. */
  fail(): void {
    if (this.current() || this.failed) return;
    this.failed = true;
    this.notify();
  }

  stop(): void {
    this.listeners.clear();
  }

  private update(): StatusUpdate {
    return { status: this.current(), failed: this.failed };
  }

  private notify(): void {
    const update = this.update();
    for (const listener of this.listeners) listener(update);
  }
}
