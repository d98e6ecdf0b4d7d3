/**
 * Pushes snapshots to listeners at most once per frame: every change before the frame shares one
 * push, and a frame whose snapshot is the one already pushed pushes nothing.
 */
export class SnapshotPublisher<T> {
  private readonly listeners = new Set<(snapshot: T) => void>();
  private pushed: T | null = null;
  private frameRequested = false;
  private stopped = false;

  /**
   * @param current the snapshot now (the owner caches it, so an unchanged state is the same object)
   * @param requestFrame runs a callback before the next frame
   */
  constructor(
    private readonly current: () => T,
    private readonly requestFrame: (callback: () => void) => void,
  ) {}

  /** Calls `listener` at once, then with a snapshot at most once per frame while something changed. */
  subscribe(listener: (snapshot: T) => void): () => void {
    this.listeners.add(listener);
    listener((this.pushed = this.current()));
    return () => this.listeners.delete(listener);
  }

  /** True when the current snapshot is not the one last pushed. */
  get behind(): boolean {
    return this.current() !== this.pushed;
  }

  /** Schedules one push for the next frame. */
  request(): void {
    if (this.frameRequested || this.listeners.size === 0 || this.stopped) return;
    this.frameRequested = true;
    this.requestFrame(() => {
      this.frameRequested = false;
      this.pushNow();
    });
  }

  /** Pushes the current snapshot now, unless it is the one already pushed. */
  pushNow(): void {
    if (this.stopped) return;
    const snapshot = this.current();
    if (snapshot === this.pushed) return;
    this.pushed = snapshot;
    for (const listener of this.listeners) listener(snapshot);
  }

  stop(): void {
    this.stopped = true;
    this.listeners.clear();
  }
}
