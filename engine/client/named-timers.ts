import type { Scheduler, TimerHandle } from './ports.ts';

/**
 * Timers by name over the injected scheduler: setting a name replaces its timer, a fired timer
 * forgets its name before it runs, and stop() clears them all and refuses new ones.
 */
export class NamedTimers {
  private readonly handles = new Map<string, TimerHandle>();
  private stopped = false;

  constructor(private readonly scheduler: Scheduler) {}

  /** True while a timer of that name waits. */
  has(name: string): boolean {
    return this.handles.has(name);
  }

  /** Runs `run` once after `delayMs`, replacing a waiting timer of the same name. */
  set(name: string, delayMs: number, run: () => void): void {
    if (this.stopped) return;
    this.clear(name);
    const handle = this.scheduler.setTimeout(() => {
      if (this.handles.get(name) === handle) this.handles.delete(name);
      run();
    }, delayMs);
    this.handles.set(name, handle);
  }

  /** Like set, but only when no timer of that name waits (a deadline re-checked when it fires). */
  ensure(name: string, delayMs: number, run: () => void): void {
    if (!this.handles.has(name)) this.set(name, delayMs, run);
  }

  /** Runs `run` every `periodMs` until stopped (the next run is scheduled before this one runs). */
  every(name: string, periodMs: number, run: () => void): void {
    const fire = (): void => {
      this.set(name, periodMs, fire);
      run();
    };
    this.set(name, periodMs, fire);
  }

  clear(name: string): void {
    const handle = this.handles.get(name);
    if (handle === undefined) return;
    this.scheduler.clearTimeout(handle);
    this.handles.delete(name);
  }

  /** Clears every timer; later set() calls do nothing. */
  stop(): void {
    this.stopped = true;
    for (const handle of this.handles.values()) this.scheduler.clearTimeout(handle);
    this.handles.clear();
  }
}
