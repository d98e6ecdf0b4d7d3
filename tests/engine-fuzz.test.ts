import { describe, expect, it } from 'vitest';
import { MemoryTapStore } from '../engine/adapters/memory-tap-store.ts';
import { economy } from '../engine/economy.ts';
import { Engine } from '../engine/engine.ts';
import { money } from '../engine/money.ts';
import type { EngineSnapshot } from '../engine/snapshot.ts';
import { counterIds, InMemoryTransport } from '../engine/testing/in-memory-transport.ts';
import { ManualTime } from '../engine/testing/manual-time.ts';

/** mulberry32: a small seeded random source, so a failing seed replays exactly. */
const seeded = (seed: number) => {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)) };
};

/**
 * The reference model: what the engine must do with each tap, from the snapshot before it
 * (§4: applied = min(requested, energy), none before the first status; energy − applied;
 * totalEarn + applied × click value).
 */
const expectedTap = (before: EngineSnapshot, requested: number) => {
  const { energy, totalEarn, clickValue } = before;
  const applied = before.ready ? Math.min(requested, energy) : 0;
  return { applied, energy: energy - applied, totalEarn: money(totalEarn).plus(applied * clickValue).toFixed() };
};

const run = async (seed: number, steps: number) => {
  const rnd = seeded(seed);
  const time = new ManualTime();
  const server = new InMemoryTransport(time, {
    scheduler: time,
    latencyMs: 40,
    start: { totalEarn: '2000', availableEnergy: 120, passiveEarnLevel: { 3: rnd.int(0, 12), 4: rnd.int(0, 3) } },
  });
  const store = new MemoryTapStore();
  const ids = counterIds(`s${seed}-`);
  const trace: string[] = [];
  let tapsApplied = 0;
  let engine = new Engine({ clock: time, scheduler: time, transport: server, store, newId: ids });

  // Steps time until the promise settles; gives up after 2 virtual minutes (e.g. a start while offline).
  const settle = async <T>(promise: Promise<T>): Promise<T | 'pending'> => {
    let done = false;
    void promise.finally(() => (done = true)).catch(() => undefined);
    for (let waited = 0; !done && waited < 120_000; waited += 20) await time.advance(20);
    return done ? promise : 'pending';
  };
  const checkEnergy = () => {
    const s = engine.getSnapshot();
    expect(s.energy).toBeGreaterThanOrEqual(0);
    expect(s.energy).toBeLessThanOrEqual(s.maxEnergy);
  };

  void engine.start();
  await time.advance(100);
  for (let step = 0; step < steps; step++) {
    const roll = rnd.next();
    if (roll < 0.45) {
      const before = engine.getSnapshot();
      const requested = rnd.int(1, 6);
      const want = expectedTap(before, requested);
      const applied = engine.tap(requested);
      const after = engine.getSnapshot();
      expect({ applied, energy: after.energy, totalEarn: after.totalEarn }).toEqual(want);
      trace.push(`tap ${requested} → ${applied}`);
    } else if (roll < 0.7) {
      await time.advance(rnd.int(1, 4_000));
    } else if (roll < 0.78) {
      const result = await settle(engine.upgrade(rnd.int(1, 5)));
      trace.push(`upgrade ${result === 'pending' ? result : result.ok}`);
    } else if (roll < 0.82) {
      const result = await settle(engine.claim());
      trace.push(`claim ${result === 'pending' ? result : result.ok}`);
    } else if (roll < 0.9) {
      server.failNext(...Array.from({ length: rnd.int(1, 3) }, () => (rnd.next() < 0.5 ? ('drop' as const) : ('lose' as const))));
    } else if (roll < 0.96) {
      server.offline = !server.offline;
    } else {
      // A reload: the persist timer has run, the old engine stops mid-flight, a new one starts.
      await time.advance(economy.unsentTapsPersistDelayMs);
      tapsApplied += engine.tapsApplied;
      engine.stop();
      engine = new Engine({ clock: time, scheduler: time, transport: server, store, newId: ids });
      void engine.start();
      await time.advance(100);
      trace.push('reload');
    }
    checkEnergy();
    trace.push(JSON.stringify({ ...engine.getSnapshot(), version: 0 }));
  }

  // The network heals; every tap must reach the server exactly once.
  server.heal();
  await time.advance(economy.retryMaxMs * 3);
  tapsApplied += engine.tapsApplied;
  checkEnergy();
  return { engine, server, trace, tapsApplied, snapshot: engine.getSnapshot() };
};

describe('engine fuzz (seeded, against a reference model)', () => {
  for (let seed = 1; seed <= 16; seed++) {
    it(`seed ${seed}: no tap lost or doubled, energy within [0, max], reconciled to the server`, async () => {
      const { server, tapsApplied, snapshot } = await run(seed, 250);
      const firstPayload = new Map<string, { click: number; seq: number }>();
      for (const call of server.calls) {
        if (call.kind !== 'click') continue;
        const { batchId, click, seq } = call.body as { batchId: string; click: number; seq: number };
        const seen = firstPayload.get(batchId);
        // A retry is the same request: same batchId, same count, same seq.
        if (seen) expect({ click, seq }).toEqual(seen);
        else firstPayload.set(batchId, { click, seq });
      }
      const sent = [...firstPayload.values()].reduce((n, b) => n + b.click, 0);
      expect(sent).toBe(tapsApplied);
      const accepted = [...server.answers.values()].reduce((n, a) => n + a.accepted, 0);
      expect(server.totalClick).toBe(accepted);
      expect(snapshot).toMatchObject({ pendingTaps: 0, online: true, totalClick: server.totalClick });
      expect(snapshot.totalEarn).toBe(server.status().totalEarn);
    });
  }

  it('gives the same run for the same seed, and another for another seed', async () => {
    const a = await run(42, 150);
    const b = await run(42, 150);
    const c = await run(43, 150);
    expect(b.trace).toEqual(a.trace);
    expect(b.server.calls).toEqual(a.server.calls);
    expect(c.trace).not.toEqual(a.trace);
  });
});
