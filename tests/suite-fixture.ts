import { afterAll, beforeAll } from 'vitest';

/**
 * A harness (or any closable fixture) opened before the suite's tests and closed after them. The
 * value it returns stands for the open one (reads and writes go to it), so tests use `h.call(…)`
 * as if it were a variable.
 */
export const openForSuite = <H extends { close(): Promise<void> }>(open: () => Promise<H>): H => {
  let current: H | undefined;
  beforeAll(async () => {
    current = await open();
  });
  afterAll(async () => {
    await current?.close();
  });
  const opened = (): H => {
    if (current === undefined) throw new Error('the suite fixture is not open yet');
    return current;
  };
  return new Proxy({} as H, {
    get: (_target, key) => {
      const value = Reflect.get(opened(), key) as unknown;
      // Methods run on the fixture itself (a class may keep private fields).
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(opened()) : value;
    },
    set: (_target, key, value) => Reflect.set(opened(), key, value),
  });
};
