import type { UserStatus } from './api-types.ts';
import { boostKeys, economy, fingerKey } from './economy.ts';
import { autoClickAmount, availableEnergy, canAutoClick, clickValue, maxEnergy, spendEnergy } from './energy.ts';
import { money, toWire, zero, type Money } from './money.ts';
import { passivePerSecond, levelOf } from './passive.ts';
import { PendingTaps } from './pending-taps.ts';
import { NamedTimers } from './named-timers.ts';
import type { Clock, IdGenerator, Scheduler, TapStore, Transport } from './ports.ts';
import { TransportError } from './ports.ts';
import type { EngineSnapshot, GameActions } from './snapshot.ts';

/** §4: the refusal of a tap at 0 energy. */
export const noEnergyMessage = "You don't have enough energy to click!";
/** §8: the upgrade, claim and fallback messages. */
export const upgradeSuccessMessage = 'Upgrade successful';
export const claimSuccessMessage = 'Claimed successful';
export const genericFailureMessage = 'Something went wrong, please try again later!';

/** Client-side timing the spec leaves open (docs/decisions/engine.md). */
export const engineTiming = {
  /** A batch is sent at the latest this long after its first tap, even while tapping goes on. */
  clickBatchMaxWaitMs: 1_000,
  /** Unsent taps are written to the tap store at most this long after they happen. */
  persistDelayMs: 100,
  /** Without requestAnimationFrame, snapshots are coalesced on this timer (one 60 Hz frame). */
  frameFallbackMs: 16,
  retryBaseMs: 1_000,
  retryMaxMs: 30_000,
} as const;

export interface EngineDeps {
  clock: Clock;
  scheduler: Scheduler;
  transport: Transport;
  store: TapStore;
  newId: IdGenerator;
  /** Runs a callback before the next frame (requestAnimationFrame); defaults to a 16 ms timer. */
  requestFrame?: (callback: () => void) => void;
}

type Listener = (snapshot: EngineSnapshot) => void;

/**
 * The client's game: the player's state from the status call as exact amounts, every timer of §4
 * and §9 (regen, passive tick, auto-click, click batching, offline claim), and the reconciliation
 * with the server. It runs over injected time and transport, so tests step it without sleeping.
 */
export class Engine implements GameActions {
  private readonly pending = new PendingTaps();
  private readonly listeners = new Set<Listener>();
  private readonly timers: NamedTimers;
  private lane: Promise<unknown> = Promise.resolve();
  private saving: Promise<void> = Promise.resolve();

  // The server's last word (§3 fields), and where its clock stood against ours.
  private status: UserStatus | null = null;
  private bankedEarn: Money = zero;
  private totalClickBanked = 0;
  private levels: Record<string, number> = {};
  private fingerLevel: number = economy.startingFingerLevel;
  private energyLevel: number = economy.startingEnergyLevel;
  private serverOffsetMs = 0;

  // The device's model between answers.
  private energy = 0;
  private energyAtMs = 0;
  private passiveSeconds = -1;
  private autoEarn: Money = zero;
  private tapStreak = 0;
  private lastTapMs = 0;
  private firstUnsentMs = 0;
  private online = true;
  private message: EngineSnapshot['message'] = null;
  private messageId = 0;

  // Passive income per second, recomputed only when a level changes, so the 1 s tick stays cheap.
  private perSecond = 0;
  private perSecondMoney: Money = zero;

  private version = 0;
  private snapshot: EngineSnapshot | null = null;
  private pushed: EngineSnapshot | null = null;
  private frameRequested = false;
  private sending = false;
  private applied = 0;
  private retryAttempt = 0;
  private claimQueued = false;
  private started = false;
  private timersStarted = false;
  private wakeStart: () => void = () => undefined;
  private stopped = false;

  constructor(private readonly deps: EngineDeps) {
    this.timers = new NamedTimers(deps.scheduler);
  }

  /** Restores unacknowledged taps, loads the status (retrying until it answers) and starts the timers. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.pending.restore(await this.deps.store.load().catch(() => null));
    this.pending.cut(this.deps.newId);
    await this.loadStatus();
  }

  /** Stops every timer; answers still on their way are ignored. */
  stop(): void {
    this.stopped = true;
    this.timers.stop();
    this.listeners.clear();
    this.wakeStart(); // a start() still backing off resolves instead of waiting forever
  }

  /** Calls `listener` with a snapshot at most once per frame while something changed. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    listener((this.pushed = this.getSnapshot()));
    return () => this.listeners.delete(listener);
  }

  /** The current state as plain data (amounts as decimal strings). */
  getSnapshot(): EngineSnapshot {
    // Regen and passive income move with time alone; the pushed snapshots follow them on the 1 s tick.
    const now = this.deps.clock.now();
    if (this.accruePassive(now) || this.snapshot?.energy !== this.energyNow(now)) this.snapshot = null;
    if (!this.snapshot) this.snapshot = this.buildSnapshot();
    return this.snapshot;
  }

  /** §4: applies up to `count` taps now against the local energy model; returns how many applied. */
  tap(count = 1): number {
    if (!this.ready || this.stopped || !Number.isInteger(count) || count <= 0) return 0;
    const now = this.deps.clock.now();
    const applied = Math.min(count, this.energyNow(now));
    if (applied < count) this.say(noEnergyMessage);
    if (applied === 0) return 0;
    this.applyTaps(applied, now);
    this.tapStreak += applied;
    this.lastTapMs = now;
    this.timers.ensure('streak', economy.clickCounterResetIdleMs, () => this.onStreakTimer());
    return applied;
  }

  /** §7: claims offline income first, then buys one level of `levelKey`. */
  async upgrade(levelKey: number): Promise<{ ok: boolean; message: string }> {
    if (!this.ready || this.stopped) return { ok: false, message: genericFailureMessage };
    this.cutBatch();
    void this.sendBatches();
    const claimed = await this.claim();
    if (!claimed.ok) return { ok: false, message: genericFailureMessage };
    try {
      const result = await this.onLane(() => this.deps.transport.updateLevel(levelKey));
      if (!result.ok) return { ok: false, message: result.message || genericFailureMessage };
      this.reconcile(result.status);
      return { ok: true, message: upgradeSuccessMessage };
    } catch (error) {
      this.noteFailure(error);
      return { ok: false, message: genericFailureMessage };
    }
  }

  /** §7: claims the passive income now (the 90 s timer does it too). */
  async claim(): Promise<{ ok: boolean; message: string }> {
    if (!this.ready || this.stopped) return { ok: false, message: genericFailureMessage };
    try {
      const result = await this.onLane(() => this.deps.transport.claim());
      this.reconcile(result.status);
      return { ok: true, message: claimSuccessMessage };
    } catch (error) {
      this.noteFailure(error);
      return { ok: false, message: genericFailureMessage };
    }
  }

  /** Reloads the status and reconciles. */
  async refresh(): Promise<void> {
    try {
      this.reconcile(await this.onLane(() => this.deps.transport.getStatus()));
    } catch (error) {
      this.noteFailure(error);
    }
  }

  /** Sends waiting batches now instead of at the next retry (e.g. when the network comes back). */
  retryNow(): void {
    if (!this.ready) return void this.refresh();
    this.timers.clear('retry');
    void this.sendBatches();
  }

  /** Taps applied on this device since start (user taps and auto-clicks), for tests and diagnostics. */
  get tapsApplied(): number {
    return this.applied;
  }

  get ready(): boolean {
    return this.status !== null;
  }

  /** The 1 s tick (§9): accrues passive income and notices energy regen. Public for benchmarks. */
  tick(): void {
    if (this.getSnapshot() !== this.pushed) this.requestFlush();
  }

  // --- timers ---------------------------------------------------------------------------------

  private startTimers(): void {
    this.timers.every('tick', economy.passiveTickMs, () => this.tick());
    this.timers.every('auto-click', economy.autoClickIntervalMs, () => this.autoClick());
    this.timers.every('claim', economy.offlineClaimIntervalMs, () => {
      if (this.claimQueued) return;
      this.claimQueued = true;
      void this.claim().finally(() => (this.claimQueued = false));
    });
  }

  private onStreakTimer(): void {
    const idleMs = this.deps.clock.now() - this.lastTapMs;
    const left = economy.clickCounterResetIdleMs - idleMs;
    if (left > 0) return this.timers.set('streak', left, () => this.onStreakTimer());
    this.tapStreak = 0;
    this.markDirty();
  }

  /** §4: every 10 s, `amount` taps when energy ≥ amount × click value; they go to the server as taps. */
  private autoClick(): void {
    if (!this.ready) return;
    const now = this.deps.clock.now();
    const finger = levelOf(this.levels, fingerKey);
    if (!canAutoClick(this.energyNow(now), finger, this.fingerLevel)) return;
    this.applyTaps(autoClickAmount(finger), now);
  }

  // --- taps and batches -----------------------------------------------------------------------

  private applyTaps(n: number, now: number): void {
    const spent = spendEnergy(this.energy, this.energyAtMs, now, this.energyLevel, n);
    this.energy = spent.energy;
    this.energyAtMs = spent.energyAtMs;
    if (this.pending.unsent === 0) this.firstUnsentMs = now;
    this.pending.add(n);
    this.applied += n;
    this.timers.ensure('batch', economy.clickBatchDebounceMs, () => this.onBatchTimer());
    this.timers.ensure('persist', engineTiming.persistDelayMs, () => this.persist());
    this.markDirty();
  }

  /** §9 debounce: a batch leaves 300 ms after the last tap, or 1 s after its first during a long run. */
  private onBatchTimer(): void {
    if (this.pending.unsent === 0) return;
    const now = this.deps.clock.now();
    const quietLeft = economy.clickBatchDebounceMs - (now - this.lastTapMs);
    const maxLeft = engineTiming.clickBatchMaxWaitMs - (now - this.firstUnsentMs);
    const wait = Math.min(quietLeft, maxLeft);
    if (wait > 0) return this.timers.set('batch', wait, () => this.onBatchTimer());
    this.cutBatch();
    void this.sendBatches();
  }

  private cutBatch(): void {
    this.timers.clear('batch');
    if (this.pending.cut(this.deps.newId)) this.persist();
  }

  /** Sends queued batches one at a time, oldest first; a failure waits for the backoff timer. */
  private async sendBatches(): Promise<void> {
    if (this.sending || this.stopped || !this.ready || this.timers.has('retry')) return;
    this.sending = true;
    try {
      for (let batch = this.pending.head; batch && !this.stopped; batch = this.pending.head) {
        const sent = batch;
        try {
          const result = await this.onLane(() => this.deps.transport.click(sent));
          if (this.stopped) return;
          this.pending.settle(sent.batchId);
          this.persist();
          // A retried batch may have been answered the first time with the answer lost; the
          // server then repeats that first, older status, so ask for a fresh one.
          if (this.retryAttempt > 0) void this.refresh();
          else this.reconcile(result.status);
          this.retryAttempt = 0;
        } catch (error) {
          if (this.stopped) return;
          if (error instanceof TransportError && !error.retryable) {
            // The server judged the request itself bad: it will never credit it (docs/engine.md).
            this.pending.settle(sent.batchId);
            this.persist();
            void this.refresh();
            continue;
          }
          this.noteFailure(error);
          this.scheduleRetry();
          return;
        }
      }
    } finally {
      this.sending = false;
    }
  }

  private scheduleRetry(): void {
    const delay = Math.min(engineTiming.retryMaxMs, engineTiming.retryBaseMs * 2 ** this.retryAttempt);
    this.retryAttempt++;
    this.timers.set('retry', delay, () => void this.sendBatches());
  }

  private persist(): void {
    this.timers.clear('persist');
    // A stopped engine (the page reloading) must not overwrite what its successor writes.
    if (this.stopped) return;
    const record = this.pending.record(this.deps.newId);
    // Writes are chained so an older record never lands after a newer one.
    this.saving = this.saving.then(() => this.deps.store.save(record)).catch(() => undefined);
  }

  // --- server answers -------------------------------------------------------------------------

  /** Runs transport calls one at a time, so every status answer includes exactly the acknowledged batches. */
  private onLane<T>(call: () => Promise<T>): Promise<T> {
    const result = this.lane.then(call);
    this.lane = result.catch(() => undefined);
    return result;
  }

  private async loadStatus(): Promise<void> {
    for (let attempt = 0; !this.stopped && !this.ready; attempt++) {
      try {
        this.reconcile(await this.onLane(() => this.deps.transport.getStatus()));
        return;
      } catch (error) {
        this.noteFailure(error);
        if (this.stopped) return;
        const delay = Math.min(engineTiming.retryMaxMs, engineTiming.retryBaseMs * 2 ** attempt);
        await new Promise<void>((resolve) => {
          this.wakeStart = resolve;
          this.timers.set('status', delay, resolve);
        });
      }
    }
  }

  /**
   * The server wins: its status replaces the banked state, and the taps it has not seen yet (the
   * unsent ones and the queued batches) are applied on top, so nothing flicks back on screen.
   */
  private reconcile(status: UserStatus): void {
    if (this.stopped) return;
    const now = this.deps.clock.now();
    const levelsChanged =
      !this.status ||
      status.fingerLevel !== this.fingerLevel ||
      status.energyLevel !== this.energyLevel ||
      !sameLevels(status.passiveEarnLevel, this.levels);
    const firstStatus = !this.status;
    this.status = status;
    this.bankedEarn = money(status.totalEarn);
    this.totalClickBanked = status.totalClick;
    this.fingerLevel = status.fingerLevel;
    this.energyLevel = status.energyLevel;
    this.serverOffsetMs = status.serverTime - now;
    if (levelsChanged) {
      this.levels = { ...status.passiveEarnLevel };
      this.perSecond = passivePerSecond(this.levels);
      this.perSecondMoney = money(this.perSecond);
    }
    // Keep the local 5 s regen phase: the server's own phase is not on the wire. The first status
    // starts a fresh phase (the engine had none), so the first +1 comes a full 5 s later.
    const max = maxEnergy(this.energyLevel);
    const phaseMs = !firstStatus && this.energy < max ? Math.max(0, now - this.energyAtMs) % economy.energyRegenIntervalMs : 0;
    this.energy = Math.min(max, Math.max(0, status.availableEnergy - this.pending.count));
    this.energyAtMs = now - (this.energy < max ? phaseMs : 0);
    this.passiveSeconds = -1;
    this.accruePassive(now);
    this.online = true;
    this.markDirty();
    if (!this.timersStarted) {
      // The first status (from start, or from a refresh while start was backing off) starts the game.
      this.timersStarted = true;
      this.startTimers();
      void this.sendBatches();
    }
  }

  /** Recomputes autoEarn when a whole second has passed since the last claim; true when it changed. */
  private accruePassive(now: number): boolean {
    if (!this.status) return false;
    const elapsedMs = Math.min(Math.max(0, now + this.serverOffsetMs - this.status.lastClaimedTime), economy.offlineRewardCapMs);
    const seconds = Math.floor(elapsedMs / 1_000);
    if (seconds === this.passiveSeconds) return false;
    this.passiveSeconds = seconds;
    // perSecond is a whole number of dollars, so this equals passiveAccrued() at whole seconds.
    this.autoEarn = this.perSecond === 0 ? zero : this.perSecondMoney.times(seconds);
    return true;
  }

  private noteFailure(error: unknown): void {
    if (error instanceof TransportError && !error.retryable) return;
    if (this.online) {
      this.online = false;
      this.markDirty();
    }
  }

  private say(text: string): void {
    this.message = { id: ++this.messageId, text };
    this.markDirty();
  }

  private energyNow(now: number): number {
    if (!this.status) return 0;
    return availableEnergy(this.energy, this.energyAtMs, now, this.energyLevel);
  }

  // --- snapshots ------------------------------------------------------------------------------

  private markDirty(): void {
    this.snapshot = null;
    this.requestFlush();
  }

  /** Schedules one push for the next frame; everything that changes before it shares it. */
  private requestFlush(): void {
    if (this.frameRequested || this.listeners.size === 0 || this.stopped) return;
    this.frameRequested = true;
    const flush = (): void => {
      this.frameRequested = false;
      if (this.stopped) return;
      const snapshot = this.getSnapshot();
      if (snapshot === this.pushed) return;
      this.pushed = snapshot;
      for (const listener of this.listeners) listener(snapshot);
    };
    if (this.deps.requestFrame) this.deps.requestFrame(flush);
    else this.timers.set('frame', engineTiming.frameFallbackMs, flush);
  }

  private buildSnapshot(): EngineSnapshot {
    const now = this.deps.clock.now();
    const pendingTaps = this.pending.count;
    const tapValue = clickValue(this.fingerLevel);
    const totalEarn = pendingTaps === 0 ? this.bankedEarn : this.bankedEarn.plus(pendingTaps * tapValue);
    return {
      version: ++this.version,
      ready: this.ready,
      online: this.online,
      totalEarn: toWire(totalEarn),
      autoEarn: toWire(this.autoEarn),
      balance: toWire(totalEarn.plus(this.autoEarn)),
      totalMoney: this.status?.totalMoney ?? '0',
      energy: this.energyNow(now),
      maxEnergy: maxEnergy(this.energyLevel),
      clickValue: tapValue,
      passivePerSecond: this.perSecond,
      fingerLevel: this.fingerLevel,
      energyLevel: this.energyLevel,
      levels: this.levels,
      totalClick: this.totalClickBanked + pendingTaps,
      tapStreak: this.tapStreak,
      pendingTaps,
      offlineReward: this.status?.offlinePassiveReward ?? '0',
      message: this.message,
    };
  }
}

const sameLevels = (a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): boolean => {
  for (const key of boostKeys) if ((a[key] ?? 0) !== (b[key] ?? 0)) return false;
  return true;
};
