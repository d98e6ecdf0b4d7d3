import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../db/db.ts';
import { createPacer, paceHeadroom } from './pacer.ts';

/** A pacer over a real (in-memory) database whose sleeps are recorded, not slept. */
const pacerOn = (db: Db, name: string, ratePerSecond: number) => {
  const waits: number[] = [];
  const pacer = createPacer({ db, name, ratePerSecond, now: () => performance.now(), sleep: async (ms) => void waits.push(ms) });
  return { pacer, waits };
};

describe('shared pacer', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb({ DATA_DIR: '.', DATABASE_URL: undefined }, { inMemory: true });
  });
  afterAll(async () => {
    await db?.close();
  });

  it('hands out slots one widened interval apart, to every caller alike', async () => {
    // Two pacers with one name stand for two processes: together they get one budget.
    const a = pacerOn(db, 'bot-a', 2);
    const b = pacerOn(db, 'bot-a', 2);
    for (let i = 0; i < 3; i++) {
      await a.pacer.slot();
      await b.pacer.slot();
    }
    const waits = [...a.waits, ...b.waits].sort((x, y) => x - y);
    // 6 slots at 2/s: the first is now (no sleep), the next 5 wait 550, 1100, … ms (minus the
    // milliseconds the queries themselves took).
    expect(waits).toHaveLength(5);
    const interval = (1000 / 2) * paceHeadroom;
    for (const [i, w] of waits.entries()) {
      expect(w).toBeLessThanOrEqual((i + 1) * interval);
      expect(w).toBeGreaterThan((i + 1) * interval - 200);
    }
  });

  it('keeps budgets of different bots apart', async () => {
    const c = pacerOn(db, 'bot-c', 1);
    await c.pacer.slot();
    expect(c.waits).toHaveLength(0);
  });

  it('a 429 in one process pauses the others', async () => {
    const a = pacerOn(db, 'bot-d', 1_000);
    const b = pacerOn(db, 'bot-d', 1_000);
    await a.pacer.slot();
    a.pacer.pauseUntil(performance.now() + 60_000);
    expect(a.pacer.isPaused()).toBe(true);
    // The pause is written without waiting; the next query runs after it on the same database.
    await db.query('SELECT 1');
    await b.pacer.slot();
    expect(b.waits.at(-1)).toBeGreaterThan(55_000);
    expect(b.pacer.isPaused()).toBe(true);
  });
});
