/**
 * Spaces out sends so a worker never exceeds `ratePerSecond` (Telegram allows about 30 messages
 * a second to different users), and pauses everyone when Telegram answers 429 with retry_after.
 * Time and sleeping are injected so tests step them.
 */

export interface Pacer {
  /** Resolves when the caller may send one message. */
  slot(): Promise<void>;
  /** Telegram said "retry after": nobody sends before `untilMs`. */
  pauseUntil(untilMs: number): void;
  /** True while a 429 pause lasts: checked again right before sending. */
  isPaused(): boolean;
}

export interface PacerDeps {
  ratePerSecond: number;
  now(): number;
  sleep(ms: number): Promise<void>;
  /** When this turns true, a waiting slot() returns at once (the worker is stopping). */
  cancelled?: () => boolean;
}

export const createPacer = ({ ratePerSecond, now, sleep, cancelled = () => false }: PacerDeps): Pacer => {
  const intervalMs = 1000 / ratePerSecond;
  let nextAt = 0;
  let pausedUntil = 0;
  return {
    slot: async () => {
      // Loop: a 429 may arrive while we wait, moving pausedUntil later.
      for (;;) {
        if (cancelled()) return;
        const t = now();
        const at = Math.max(t, nextAt, pausedUntil);
        if (at <= t) {
          nextAt = t + intervalMs;
          return;
        }
        await sleep(at - t);
      }
    },
    pauseUntil: (untilMs) => {
      pausedUntil = Math.max(pausedUntil, untilMs);
    },
    isPaused: () => now() < pausedUntil,
  };
};
