import { describe, expect, it } from 'vitest';
import { MemoryTapStore } from './adapters/memory-tap-store.ts';
import { tapRules, type TapRules } from '../rules/clicks.ts';
import { economy } from '../rules/economy.ts';
import { Engine, type EngineDeps } from './engine.ts';
import { messages } from '../wire/messages.ts';
import { money } from '../rules/money.ts';
import { passiveAccrued, passivePerSecond } from '../rules/passive.ts';
import type { TapStore } from './ports.ts';
import type { EngineSnapshot, StatusUpdate } from './snapshot.ts';
import { counterIds, InMemoryTransport, type InMemoryTransportOptions } from './testing/in-memory-transport.ts';
import { ManualTime } from './testing/manual-time.ts';

/** `rules` runs the server and the engine on the same tap rules; `clientRules` gives the engine others. */
type SetupOptions = InMemoryTransportOptions & { store?: MemoryTapStore; ids?: () => string; startMs?: number; clientRules?: TapRules; awayMs?: number };

const setup = async (options: SetupOptions = {}) => {
  const time = new ManualTime(options.startMs);
  const server = new InMemoryTransport(time, { scheduler: time, ...options });
  // The player's last claim was this long ago: the app opens after being away.
  server.lastClaimedMs -= options.awayMs ?? 0;
  const store = options.store ?? new MemoryTapStore();
  const rules = options.clientRules ?? options.rules;
  const deps: EngineDeps = { clock: time, scheduler: time, transport: server, store, newId: options.ids ?? counterIds(), rules };
  const engine = new Engine(deps);
  const snapshots: EngineSnapshot[] = [];
  engine.subscribe((s) => snapshots.push(s));
  const started = engine.start();
  await time.advance(options.latencyMs ?? 0);
  await started;
  const snap = () => engine.getSnapshot();
  return { time, server, store, engine, snapshots, snap };
};

const clicks = (server: InMemoryTransport) => server.calls.filter((c) => c.kind === 'click');

describe('engine', () => {
  it('loads the status at start and becomes ready', async () => {
    const { snap } = await setup({ start: { totalEarn: '12.50', fingerLevel: 3, energyLevel: 2, availableEnergy: 700 } });
    expect(snap()).toMatchObject({ ready: true, totalEarn: '12.5', energy: 700, maxEnergy: 1_000, clickValue: 3, fingerLevel: 3 });
  });

  it('applies a tap at once: energy −1, totalEarn + click value', async () => {
    const { engine, snap } = await setup({ start: { fingerLevel: 4, availableEnergy: 10 } });
    expect(engine.tap(1)).toBe(1);
    expect(snap()).toMatchObject({ energy: 9, totalEarn: '4', balance: '4', totalClick: 1, pendingTaps: 1, tapStreak: 1 });
  });

  it('refuses a tap at 0 energy with the §4 message, and applies only what energy allows', async () => {
    const { engine, snap } = await setup({ start: { availableEnergy: 2 } });
    expect(engine.tap(3)).toBe(2);
    expect(snap().message?.text).toBe(messages.noEnergy);
    const firstId = snap().message?.id;
    expect(engine.tap(1)).toBe(0);
    expect(snap()).toMatchObject({ energy: 0, totalEarn: '2' });
    expect(snap().message?.id).toBeGreaterThan(firstId!);
  });

  it('regenerates 1 energy every 5 s up to 500 × energy level', async () => {
    const { time, snap } = await setup({ start: { availableEnergy: 497 } });
    await time.advance(4_999);
    expect(snap().energy).toBe(497);
    await time.advance(1);
    expect(snap().energy).toBe(498);
    await time.advance(60_000);
    expect(snap().energy).toBe(500);
  });

  it('starts a fresh 5 s regen phase at the first status, whatever the clock reads', async () => {
    const { time, snap } = await setup({ startMs: 1_700_000_003_000, start: { availableEnergy: 742, energyLevel: 2 } });
    await time.advance(4_999);
    expect(snap().energy).toBe(742);
    await time.advance(1);
    expect(snap().energy).toBe(743);
  });

  it('pushes regen and passive income to subscribers on the 1 s tick, with no call in between', async () => {
    const { time, snapshots } = await setup({ start: { availableEnergy: 490, passiveEarnLevel: { 4: 1 } } });
    await time.advance(5_000 + economy.frameFallbackMs); // the 5 s tick, then its frame
    expect(snapshots.at(-1)).toMatchObject({ energy: 491, autoEarn: '10' });
    const count = snapshots.length;
    await time.advance(1_000);
    expect(snapshots.length).toBe(count + 1);
  });

  it('adds passive income to autoEarn on the 1 s tick, as passiveAccrued computes it', async () => {
    const levels = { 4: 3, 5: 2 };
    const { time, snap } = await setup({ start: { passiveEarnLevel: levels, totalEarn: '1' } });
    expect(snap().passivePerSecond).toBe(passivePerSecond(levels));
    await time.advance(2_500);
    expect(snap().autoEarn).toBe(passiveAccrued(levels, 0, 2_000).toFixed());
    expect(snap().balance).toBe(money(1).plus(passiveAccrued(levels, 0, 2_000)).toFixed());
  });

  it('auto-clicks every 10 s with amount = min(Finger level, 53) when energy allows, sent as taps', async () => {
    const { time, server, snap } = await setup({ start: { passiveEarnLevel: { 3: 60 }, fingerLevel: 2, availableEnergy: 500 } });
    await time.advance(9_999);
    expect(snap().pendingTaps).toBe(0);
    await time.advance(1);
    expect(snap()).toMatchObject({ energy: 500 - 53, totalEarn: String(53 * 2), tapStreak: 0 });
    await time.advance(economy.clickBatchDebounceMs);
    expect(clicks(server).map((c) => (c.body as { click: number }).click)).toEqual([53]);
  });

  it('skips the auto-click when energy < amount × click value', async () => {
    const { time, snap } = await setup({ start: { passiveEarnLevel: { 3: 10 }, fingerLevel: 5, availableEnergy: 47 } });
    await time.advance(10_000);
    expect(snap()).toMatchObject({ pendingTaps: 0, totalEarn: '0' });
  });

  it('batches taps with a 300 ms debounce into one POST /click with batchId and seq', async () => {
    const { engine, time, server, snap } = await setup();
    for (let i = 0; i < 5; i++) {
      engine.tap(1);
      await time.advance(100);
    }
    expect(clicks(server)).toHaveLength(0);
    await time.advance(200);
    // With the device's clock at the batch's first tap (the review's cadence, docs/airdrop.md).
    expect(clicks(server).map((c) => c.body)).toEqual([{ click: 5, batchId: 'b1', seq: 1, firstTapMs: 1_700_000_000_000 }]);
    expect(snap()).toMatchObject({ pendingTaps: 0, totalEarn: '5', totalClick: 5 });
    engine.tap(2);
    await time.advance(300);
    expect(clicks(server).map((c) => c.body)).toEqual([
      { click: 5, batchId: 'b1', seq: 1, firstTapMs: 1_700_000_000_000 },
      { click: 2, batchId: 'b2', seq: 2, firstTapMs: 1_700_000_000_700 },
    ]);
  });

  it('still sends during a long run of taps, at most the max wait after the first', async () => {
    const { engine, time, server } = await setup();
    for (let i = 0; i < 60; i++) {
      engine.tap(1);
      await time.advance(20);
    }
    const sent = clicks(server).map((c) => (c.body as { click: number }).click);
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect(sent[0]).toBeLessThanOrEqual(economy.clickBatchMaxWaitMs / 20 + 1);
  });

  it('resets the tap streak after 3 s idle', async () => {
    const { engine, time, snap } = await setup();
    engine.tap(1);
    await time.advance(2_000);
    engine.tap(2);
    await time.advance(2_999);
    expect(snap().tapStreak).toBe(3);
    await time.advance(1);
    expect(snap().tapStreak).toBe(0);
  });

  it('claims offline income every 90 s', async () => {
    const { time, server, snap } = await setup({ start: { passiveEarnLevel: { 4: 1 } } });
    await time.advance(89_999);
    expect(server.calls.filter((c) => c.kind === 'claim')).toHaveLength(0);
    await time.advance(1);
    expect(server.calls.filter((c) => c.kind === 'claim')).toHaveLength(1);
    expect(snap()).toMatchObject({ totalEarn: '180', autoEarn: '0' });
  });

  it('offers the offline reward the load began with, until a claim banks it (§2 "Money Dream")', async () => {
    const { time, server, snap } = await setup({ start: { passiveEarnLevel: { 4: 1 } }, awayMs: 60 * 60 * 1_000 });
    const perSecond = passivePerSecond({ 4: 1 });
    expect(snap().offlineReward).toBe(String(perSecond * 3_600));
    // Still the amount of the return, not what accrues on screen meanwhile.
    await time.advance(89_999);
    expect(snap().offlineReward).toBe(String(perSecond * 3_600));
    // The 90 s claim banks it: an open popup has nothing left to offer.
    await time.advance(1);
    expect(server.calls.filter((c) => c.kind === 'claim')).toHaveLength(1);
    expect(snap().offlineReward).toBe('0');
    expect(snap().totalEarn).toBe(String(perSecond * (3_600 + 90)));
  });

  it('never offers passive income earned during the session (a card bought, then a later status)', async () => {
    const { time, engine, server, snap } = await setup({ start: { totalEarn: '100000' } });
    expect(snap().offlineReward).toBe('0');
    expect((await engine.upgrade(4)).ok).toBe(true);
    await time.advance(60_000);
    // The server's status now reports passive income since the last claim (Invite → Home reloads it)…
    await engine.refresh();
    expect(Number(server.status().offlinePassiveReward)).toBeGreaterThan(0);
    expect(snap().autoEarn).not.toBe('0');
    // …which is this session's income, not a reward for being away.
    expect(snap().offlineReward).toBe('0');
  });

  it('sends pending taps and claims before an upgrade, then reconciles to the new levels', async () => {
    const { engine, server, snap } = await setup({ start: { totalEarn: '25', fingerLevel: 1 } });
    engine.tap(5);
    const result = await engine.upgrade(1);
    expect(result).toEqual({ ok: true, message: messages.upgradeSuccess });
    expect(server.calls.map((c) => c.kind)).toEqual(['status', 'click', 'claim', 'update-level']);
    expect(snap()).toMatchObject({ fingerLevel: 2, clickValue: 2, totalEarn: '0' });
  });

  it('passes the server message when an upgrade is refused', async () => {
    const { engine, snap } = await setup({ start: { totalEarn: '1' } });
    const result = await engine.upgrade(2);
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/unaffordable/);
    expect(snap().energyLevel).toBe(1);
  });

  it('reconciles to the server when it accepts fewer taps than sent', async () => {
    // A server whose allowance is 3 taps (no idle credit) where the engine predicts the game's 240.
    const strict = { ...tapRules, humanTapBurst: 3, humanTapCreditWindowMs: 0 };
    const { engine, time, snap } = await setup({ rules: strict, clientRules: tapRules });
    expect(engine.tap(5)).toBe(5);
    await time.advance(300);
    expect(snap()).toMatchObject({ totalEarn: '3', totalClick: 3, pendingTaps: 0, energy: 497 });
  });

  it('spends energyPerTap per tap and refuses what energy cannot pay for, as the server does', async () => {
    const { engine, time, server, snap } = await setup({ rules: { ...tapRules, energyPerTap: 2 }, start: { availableEnergy: 7, fingerLevel: 2 } });
    expect(engine.tap(5)).toBe(3);
    expect(snap()).toMatchObject({ energy: 1, totalEarn: '6', pendingTaps: 3, message: { text: messages.noEnergy } });
    expect(engine.tap(1)).toBe(0);
    await time.advance(economy.clickBatchDebounceMs);
    expect(clicks(server).map((c) => (c.body as { click: number }).click)).toEqual([3]);
    expect(server.totalClick).toBe(3);
    expect(snap()).toMatchObject({ energy: 1, totalEarn: '6', totalClick: 3, pendingTaps: 0 });
  });

  it('lays the energy of unacknowledged taps (× energyPerTap) on the server status', async () => {
    const { engine, time, snap } = await setup({ rules: { ...tapRules, energyPerTap: 2 }, latencyMs: 200 });
    engine.tap(4);
    await time.advance(300); // b1 (4 taps) leaves; its answer needs 200 ms
    engine.tap(3);
    expect(snap().energy).toBe(500 - 7 * 2);
    await time.advance(200); // the server says 492 after b1; 3 taps not yet sent cost 6 more
    expect(snap()).toMatchObject({ energy: 486, pendingTaps: 3, totalEarn: '7' });
  });

  it('clips taps at the human-rate allowance as the server does, without the energy message', async () => {
    const rules = { ...tapRules, humanTapBurst: 5, humanTapCreditWindowMs: 0 };
    const { engine, time, server, snap } = await setup({ rules });
    // No idle credit: the allowance is the burst of 5, and the taps just made have spent it.
    expect(engine.tap(8)).toBe(5);
    expect(engine.tap(1)).toBe(0);
    expect(snap()).toMatchObject({ energy: 495, pendingTaps: 5, message: null });
    await time.advance(economy.clickBatchDebounceMs);
    expect(server.totalClick).toBe(5);
    // 300 ms at 20 taps/s have moved the tap clock past the 250 ms those 5 taps took.
    expect(engine.tap(8)).toBe(5);
    await time.advance(economy.clickBatchDebounceMs);
    expect(snap()).toMatchObject({ totalClick: 10, pendingTaps: 0, totalEarn: '10', message: null });
    expect(server.totalClick).toBe(10);
  });

  it('keeps taps made while a batch is in flight on screen when its answer arrives', async () => {
    const { engine, time, snap } = await setup({ latencyMs: 200 });
    engine.tap(4);
    await time.advance(300); // batch b1 leaves; the answer needs 200 ms
    engine.tap(3);
    expect(snap()).toMatchObject({ totalEarn: '7', energy: 493 });
    await time.advance(200); // b1 answered: server says 4, plus 3 taps not yet sent
    expect(snap()).toMatchObject({ totalEarn: '7', energy: 493, pendingTaps: 3 });
  });

  it('retries a failed batch with the same batchId and exponential backoff, and goes offline meanwhile', async () => {
    const { engine, time, server, snap } = await setup();
    server.failNext('drop', 'lose');
    engine.tap(2);
    await time.advance(300);
    expect(snap()).toMatchObject({ online: false, totalEarn: '2', pendingTaps: 2 });
    await time.advance(economy.retryBaseMs); // 2nd try: processed, answer lost
    await time.advance(economy.retryBaseMs * 2 - 1);
    expect(clicks(server)).toHaveLength(2);
    await time.advance(1); // 3rd try: the repeated batchId returns the first answer
    const ids = clicks(server).map((c) => (c.body as { batchId: string }).batchId);
    expect(ids).toEqual(['b1', 'b1', 'b1']);
    expect(server.totalClick).toBe(2);
    expect(snap()).toMatchObject({ online: true, totalEarn: '2', pendingTaps: 0 });
  });

  it('keeps counting offline against its own energy model and sends when the network returns', async () => {
    const { engine, time, server, snap } = await setup();
    server.offline = true;
    for (let i = 0; i < 10; i++) {
      engine.tap(1);
      await time.advance(500);
    }
    expect(snap()).toMatchObject({ online: false, totalEarn: '10', energy: 491, pendingTaps: 10 });
    server.offline = false;
    await time.advance(economy.retryMaxMs);
    expect(server.totalClick).toBe(10);
    expect(snap()).toMatchObject({ online: true, totalEarn: '10', pendingTaps: 0 });
  });

  it('persists unacknowledged taps and sends them at the next start with the same batchIds', async () => {
    const store = new MemoryTapStore();
    const first = await setup({ store });
    first.server.offline = true;
    first.engine.tap(3);
    await first.time.advance(300);
    first.engine.tap(2);
    await first.time.advance(economy.unsentTapsPersistDelayMs);
    // The unsent taps are saved with the id they will be sent under.
    expect(store.record).toEqual({ batches: [{ batchId: 'b1', seq: 1, click: 3, firstTapMs: expect.any(Number) }], unsent: 2, next: { batchId: 'b2', seq: 2 } });
    first.engine.stop();

    const second = await setup({ store, ids: counterIds('n') });
    await second.time.advance(0);
    expect(clicks(second.server).map((c) => c.body)).toEqual([
      { click: 3, batchId: 'b1', seq: 1, firstTapMs: expect.any(Number) },
      // Saved as a count, these taps lost their time: sent without one (timed by the server).
      { click: 2, batchId: 'b2', seq: 2 },
    ]);
    expect(second.server.totalClick).toBe(5);
    expect(store.record).toEqual({ batches: [], unsent: 0 });
  });

  it('does not count taps twice when the page dies after a batch is sent but before its cut is saved', async () => {
    const time = new ManualTime();
    const server = new InMemoryTransport(time, { scheduler: time });
    const store = new MemoryTapStore();
    let closing = false;
    // Once the page is closing, writes never land (the worker is killed mid-write).
    const dying: TapStore = { load: () => store.load(), save: (r) => (closing ? new Promise<void>(() => undefined) : store.save(r)) };
    const first = new Engine({ clock: time, scheduler: time, transport: server, store: dying, newId: counterIds('a') });
    const started = first.start();
    await time.advance(0);
    await started;
    first.tap(5);
    await time.advance(economy.unsentTapsPersistDelayMs);
    expect(store.record).toMatchObject({ batches: [], unsent: 5 });
    closing = true;
    await time.advance(economy.clickBatchDebounceMs);
    expect(server.totalClick).toBe(5);
    first.stop();

    const second = new Engine({ clock: time, scheduler: time, transport: server, store, newId: counterIds('b') });
    const restarted = second.start();
    await time.advance(0);
    await restarted;
    await time.advance(economy.retryMaxMs);
    expect(server.totalClick).toBe(5);
    expect(second.getSnapshot()).toMatchObject({ pendingTaps: 0, totalClick: 5 });
  });

  it('drops a batch the server refuses as bad input (4xx) and reloads the status', async () => {
    const { engine, time, server, snap } = await setup();
    server.rejectWith(400);
    engine.tap(2);
    await time.advance(300);
    expect(server.calls.map((c) => c.kind)).toEqual(['status', 'click', 'status']);
    expect(snap()).toMatchObject({ online: true, totalEarn: '0', pendingTaps: 0, energy: 500 });
  });

  it('posts at most one snapshot per frame at 50 taps/s', async () => {
    const { engine, time, snapshots } = await setup();
    const before = snapshots.length;
    for (let i = 0; i < 100; i++) {
      engine.tap(1);
      await time.advance(20);
    }
    const posted = snapshots.length - before;
    expect(posted).toBeLessThanOrEqual(Math.ceil((100 * 20) / economy.frameFallbackMs));
    expect(posted).toBeGreaterThan(50);
    expect(snapshots.at(-1)!.totalClick).toBe(100);
  });

  it('coalesces a burst within one frame into one snapshot', async () => {
    const { engine, time, snapshots } = await setup();
    await time.advance(100);
    const before = snapshots.length;
    for (let i = 0; i < 30; i++) engine.tap(1);
    await time.advance(economy.frameFallbackMs);
    expect(snapshots.length - before).toBe(1);
    expect(snapshots.at(-1)!.energy).toBe(470);
  });

  it('keeps a snapshot with every item at a high level under 4 KiB', async () => {
    const levels = Object.fromEntries(Array.from({ length: 19 }, (_, i) => [i + 3, 4_000 + i]));
    const { engine, snap } = await setup({ start: { passiveEarnLevel: levels, fingerLevel: 5_000, energyLevel: 5_000, totalEarn: '9'.repeat(300) } });
    engine.tap(1);
    expect(new TextEncoder().encode(JSON.stringify(snap())).length).toBeLessThanOrEqual(4_096);
    expect(structuredClone(snap())).toEqual(snap());
  });

  it('reports a failed claim with the §8 message', async () => {
    const { engine, server } = await setup();
    server.offline = true;
    expect(await engine.claim()).toEqual({ ok: false, message: messages.somethingWrong });
  });

  it('starts the game when a refresh answers while the first status call is backing off', async () => {
    const time = new ManualTime();
    const server = new InMemoryTransport(time);
    server.failNext('drop', 'drop', 'drop');
    const engine = new Engine({ clock: time, scheduler: time, transport: server, store: new MemoryTapStore(), newId: counterIds() });
    const started = engine.start();
    await time.advance(economy.retryBaseMs * 3 - 1); // two failed tries, the third is due at 3 s
    await engine.refresh(); // third drop
    expect(engine.ready).toBe(false);
    await engine.refresh();
    expect(engine.ready).toBe(true);
    engine.tap(2);
    await time.advance(economy.clickBatchDebounceMs);
    expect(server.totalClick).toBe(2);
    await time.advance(economy.retryBaseMs * 4);
    await started;
    // Once ready, the backing-off start loop makes no further status call.
    expect(server.calls.filter((c) => c.kind === 'status')).toHaveLength(4);
  });

  it('refuses taps before the first status has answered', async () => {
    const time = new ManualTime();
    const server = new InMemoryTransport(time);
    server.offline = true;
    const engine = new Engine({ clock: time, scheduler: time, transport: server, store: new MemoryTapStore(), newId: counterIds() });
    void engine.start();
    await time.advance(0);
    expect(engine.tap(1)).toBe(0);
    server.offline = false;
    await time.advance(economy.retryBaseMs);
    expect(engine.ready).toBe(true);
    expect(engine.tap(1)).toBe(1);
    engine.stop();
    expect(time.pending).toBe(0);
  });

  it('resolves start() when stopped while the first status call is backing off', async () => {
    const time = new ManualTime();
    const server = new InMemoryTransport(time);
    server.offline = true;
    const engine = new Engine({ clock: time, scheduler: time, transport: server, store: new MemoryTapStore(), newId: counterIds() });
    let resolved = false;
    void engine.start().then(() => (resolved = true));
    await time.advance(economy.retryBaseMs);
    engine.stop();
    await time.advance(0);
    expect(resolved).toBe(true);
    expect(engine.ready).toBe(false);
  });
});

describe('engine: the status it owns', () => {
  it('pushes the whole status at start, after a refresh and a claim, and not after a tap batch', async () => {
    const { engine, time } = await setup({ start: { totalEarn: '7' } });
    const updates: StatusUpdate[] = [];
    engine.subscribeStatus((u) => updates.push(u));
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({ failed: false, status: { totalEarn: '7' } });
    engine.tap(2);
    await time.advance(economy.clickBatchMaxWaitMs);
    expect(updates).toHaveLength(1);
    await engine.refresh();
    await engine.claim();
    expect(updates).toHaveLength(3);
    expect(updates[2]!.status?.totalClick).toBe(2);
  });

  it('says the status failed while the first load keeps failing, until one answers', async () => {
    const time = new ManualTime();
    const server = new InMemoryTransport(time, { scheduler: time });
    server.offline = true;
    const engine = new Engine({ clock: time, scheduler: time, transport: server, store: new MemoryTapStore(), newId: counterIds() });
    const updates: StatusUpdate[] = [];
    engine.subscribeStatus((u) => updates.push(u));
    const started = engine.start();
    await time.advance(0);
    expect(updates.at(-1)).toEqual({ status: null, failed: true });
    server.offline = false;
    await time.advance(economy.retryMaxMs);
    await started;
    expect(updates.at(-1)).toMatchObject({ failed: false, status: { id: expect.any(String) } });
    engine.stop();
  });
});
