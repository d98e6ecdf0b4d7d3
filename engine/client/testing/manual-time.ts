import type { Clock, Scheduler, TimerHandle } from '../ports.ts';

interface Timer {
  id: number;
  dueMs: number;
  callback: () => void;
}

/** Lets pending promise callbacks run: each await yields one microtask turn. */
export const flushMicrotasks = async (turns = 50): Promise<void> => {
  for (let i = 0; i < turns; i++) await Promise.resolve();
};

/**
 * A clock and scheduler that only move when a test steps them, so timer-driven code is tested
 * without sleeping. Timers fire in due order (then creation order), each at its own due time,
 * with microtasks flushed after each so async continuations run "between" timers.
 */
export class ManualTime implements Clock, Scheduler {
  private nowMs: number;
  private nextId = 1;
  private timers: Timer[] = [];

  constructor(startMs = 1_700_000_000_000) {
    this.nowMs = startMs;
  }

  now(): number {
    return this.nowMs;
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const timer = { id: this.nextId++, dueMs: this.nowMs + Math.max(0, delayMs), callback };
    this.timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  /** Number of timers still waiting. */
  get pending(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  async advance(ms: number): Promise<void> {
    const target = this.nowMs + ms;
    await flushMicrotasks();
    for (;;) {
      const next = this.nextDue(target);
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.nowMs = Math.max(this.nowMs, next.dueMs);
      next.callback();
      await flushMicrotasks();
    }
    this.nowMs = target;
  }

  private nextDue(limitMs: number): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.timers) {
      if (t.dueMs > limitMs) continue;
      if (!best || t.dueMs < best.dueMs || (t.dueMs === best.dueMs && t.id < best.id)) best = t;
    }
    return best;
  }
}
