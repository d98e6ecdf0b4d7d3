import type { Clock, Scheduler } from '../ports.ts';

/** The device clock. */
export const realClock: Clock = { now: () => Date.now() };

/** The platform's timers. */
export const realScheduler: Scheduler = {
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * requestAnimationFrame where the platform has it (Chromium has it in dedicated workers), so
 * snapshots follow the display's frames; undefined elsewhere (Node), where the engine falls back
 * to a 16 ms timer.
 */
export const platformRequestFrame = (): ((callback: () => void) => void) | undefined => {
  const raf = (globalThis as { requestAnimationFrame?: (cb: () => void) => number }).requestAnimationFrame;
  return typeof raf === 'function' ? (callback) => void raf.call(globalThis, callback) : undefined;
};

/** A unique batch id from the platform's cryptographic randomness. */
export const randomId = (): string => crypto.randomUUID();
