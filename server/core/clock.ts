/** The server's clock: every rule takes its time from here, so tests step time instead of sleeping. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to (tests, and TEST_MODE launches). */
export interface ManualClock extends Clock {
  advance(ms: number): void;
  set(ms: number): void;
}

export const manualClock = (startMs = Date.UTC(2026, 0, 1)): ManualClock => {
  let t = startMs;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
    set: (ms) => {
      t = ms;
    },
  };
};
