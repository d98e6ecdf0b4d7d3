import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../core/db/db.ts';
import { createPacer, paceHeadroom, paceWindowSlackMs } from './pacer.ts';

/**
 * Pacers over a real (in-memory) database whose sleeps do not wait: a sleep moves every stored
 * time of send_pace back instead, which to the pacer is time passing. `now()` is that clock.
 */
const simulated = (db: Db) => {
  let shiftedMs = 0;
  const now = () => performance.now() + shiftedMs;
  const sleeps: number[] = [];
  const pass = async (ms: number) => {
    shiftedMs += ms;
    await db.query(
      `UPDATE send_pace SET next_slot_ms = next_slot_ms - $1, paused_until_ms = paused_until_ms - $1,
         recent_ms = ARRAY(SELECT x - $1 FROM unnest(recent_ms) WITH ORDINALITY AS u(x, i) ORDER BY i)`,
      [ms],
    );
  };
  const pacer = (name: string, ratePerSecond: number, oversleepMs = () => 0) =>
    createPacer({
      db,
      name,
      ratePerSecond,
      now,
      sleep: async (ms) => {
        sleeps.push(ms);
        await pass(ms + oversleepMs());
      },
    });
  return { pacer, now, sleeps };
};

/** Six rounds over the lanes: each waits for its slot and takes it; returns when each send went. */
const sendRounds = async (sim: ReturnType<typeof simulated>, lanes: ReturnType<typeof createPacer>[]): Promise<number[]> => {
  const times: number[] = [];
  for (let i = 0; i < 6; i++)
    for (const p of lanes) {
      await p.slot();
      expect(await p.take()).toBe(true);
      times.push(sim.now());
    }
  return times;
};

/** The most permissions inside any window of `windowMs`. */
const busiest = (times: number[], windowMs: number) => Math.max(...times.map((t, i) => times.slice(i).filter((x) => x < t + windowMs).length));

describe('shared pacer', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb({ DATA_DIR: '.', DATABASE_URL: undefined }, { inMemory: true });
  });
  afterAll(async () => {
    await db?.close();
  });

  it('lets at most the rate through in any window, two processes together', async () => {
    const sim = simulated(db);
    // Two pacers with one name stand for two processes: together they get one budget.
    const [a, b] = [sim.pacer('bot-a', 3), sim.pacer('bot-a', 3)];
    const times = await sendRounds(sim, [a, b]);
    expect(busiest(times, 1_000)).toBeLessThanOrEqual(3);
    // …and not needlessly slower: 12 sends at 3/s take three full windows (3 slots and the slack
    // each) and two more slots.
    const slotMs = (1000 / 3) * paceHeadroom;
    expect(times.at(-1)! - times[0]!).toBeLessThan(3 * (3 * slotMs + paceWindowSlackMs) + 2 * slotMs + 200);
  });

  it('a lane that overslept waits instead of bunching up with punctual ones', async () => {
    const sim = simulated(db);
    let late = 3;
    // The first three sleeps overrun by 400 ms (a busy event loop); the rest are punctual.
    const [a, b] = [sim.pacer('bot-b', 3, () => (late-- > 0 ? 400 : 0)), sim.pacer('bot-b', 3)];
    const times = await sendRounds(sim, [a, b]);
    expect(busiest(times, 1_000)).toBeLessThanOrEqual(3);
  });

  it('keeps budgets of different bots apart', async () => {
    const sim = simulated(db);
    const c = sim.pacer('bot-c', 1);
    await c.slot();
    expect(await c.take()).toBe(true);
    expect(sim.sleeps).toEqual([]);
  });

  it('a 429 in one process pauses the others', async () => {
    const sim = simulated(db);
    const [a, b] = [sim.pacer('bot-d', 1_000), sim.pacer('bot-d', 1_000)];
    await a.slot();
    expect(await a.take()).toBe(true);
    a.pauseUntil(sim.now() + 60_000);
    expect(a.isPaused()).toBe(true);
    // The pause is written without waiting; the next query runs after it on the same database.
    await db.query('SELECT 1');
    // Another process: its turn comes after the pause, and a send is refused while it lasts.
    await b.slot();
    expect(await b.take(0)).toBe(true);
    expect(sim.sleeps.reduce((x, y) => x + y, 0)).toBeGreaterThan(59_000);
  });
});
