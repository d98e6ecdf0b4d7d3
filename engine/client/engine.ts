import type { UserStatus } from '../wire/api-types.ts';
import { applyTaps, tapEarnings, tapEnergy, tapRules, type TapOutcome, type TapRules } from '../rules/clicks.ts';
import { economy, fingerKey } from '../rules/economy.ts';
import { autoClickAmount, availableEnergy, canAutoClick, clickValue, maxEnergy } from '../rules/energy.ts';
import { messages } from '../wire/messages.ts';
import { money, toWire, zero, type Money } from '../rules/money.ts';
import { NamedTimers } from './named-timers.ts';
import { Outbox, serialLane } from './outbox.ts';
import { passivePerSecond, levelOf, sameLevels } from '../rules/passive.ts';
import type { Clock, IdGenerator, Scheduler, TapStore, Transport } from './ports.ts';
import { TransportError } from './ports.ts';
import { retryDelayMs } from './retry.ts';
import { tapMultiplier } from '../rules/shop.ts';
import { SnapshotPublisher } from './snapshot-publisher.ts';
import { StatusFeed } from './status-feed.ts';
import type { ActionResult, EngineActions, EngineSnapshot, StatusUpdate } from './snapshot.ts';

export interface EngineDeps {
  clock: Clock;
  scheduler: Scheduler;
  transport: Transport;
  store: TapStore;
  newId: IdGenerator;
  /** Runs a callback before the next frame (requestAnimationFrame); defaults to a 16 ms timer. */
  requestFrame?: (callback: () => void) => void;
  /** The tap rule's numbers; the game's own (`tapRules`) unless a test runs the rule with others. */
  rules?: TapRules;
}

/**
 * The client's model of the game: the player's state from the status call as exact amounts, the
 * timers of §4 and §9 (regen, passive tick, auto-click, offline claim), and the reconciliation with
 * the server. Taps go out through the Outbox; snapshots through the SnapshotPublisher. It runs
 * over injected time and transport, so tests step it without sleeping.
 */
export class Engine implements EngineActions {
  private readonly timers: NamedTimers;
  private readonly lane = serialLane();
  private readonly outbox: Outbox;
  private readonly publisher: SnapshotPublisher<EngineSnapshot>;
  private readonly statusFeed = new StatusFeed(() => this.status);
  private readonly rules: TapRules;

  // The server's last word (§3 fields), and where its clock stood against ours.
  private status: UserStatus | null = null;
  private bankedEarn: Money = zero;
  private totalClickBanked = 0;
  private levels: Record<string, number> = {};
  private fingerLevel: number = economy.startingFingerLevel;
  private energyLevel: number = economy.startingEnergyLevel;
  private serverOffsetMs = 0;
  /** A bought double-tap stretch's end on this device's clock (0: none; docs/shop.md). */
  private tapBoostUntilMs = 0;
  // §2 "Money Dream": what passive income earned while the player was away, as the first status of
  // this load said it, until a claim banks it (docs/engine.md "The offline reward").
  private offlineOffer = '0';
  private offlineOfferClaimedAt = 0;

  // The device's model between answers.
  private energy = 0;
  private energyAtMs = 0;
  // The device's tap clock (docs/rules.md §4). The server's is not on the wire, so a new engine starts
  // with the full idle credit; it moves with the taps applied here, as the server's moves with them.
  private tapClockMs = 0;
  private passiveSeconds = -1;
  private autoEarn: Money = zero;
  private tapStreak = 0;
  private lastTapMs = 0;
  private online = true;
  private message: EngineSnapshot['message'] = null;
  private messageId = 0;

  // Passive income per second, recomputed only when a level changes, so the 1 s tick stays cheap.
  private perSecond = 0;
  private perSecondMoney: Money = zero;

  private version = 0;
  private snapshot: EngineSnapshot | null = null;
  private applied = 0;
  private claimQueued = false;
  private started = false;
  private timersStarted = false;
  private wakeStart: () => void = () => undefined;
  private stopped = false;

  constructor(private readonly deps: EngineDeps) {
    this.timers = new NamedTimers(deps.scheduler);
    this.rules = deps.rules ?? tapRules;
    this.outbox = new Outbox({
      ...deps,
      lane: this.lane,
      canSend: () => this.ready,
      onAcknowledged: (status, fresh) => (fresh ? this.reconcile(status) : void this.refresh()),
      onDropped: () => void this.refresh(),
      onFailure: (error) => this.noteFailure(error),
    });
    const requestFrame = deps.requestFrame ?? ((flush: () => void) => this.timers.set('frame', economy.frameFallbackMs, flush));
    this.publisher = new SnapshotPublisher(() => this.getSnapshot(), requestFrame);
  }

  /** Restores unacknowledged taps, loads the status (retrying until it answers) and starts the timers. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.outbox.restore();
    await this.loadStatus();
  }

  /** Stops every timer; answers still on their way are ignored. */
  stop(): void {
    this.stopped = true;
    this.timers.stop();
    this.outbox.stop();
    this.publisher.stop();
    this.statusFeed.stop();
    this.wakeStart(); // a start() still backing off resolves instead of waiting forever
  }

  /** Calls `listener` with a snapshot at most once per frame while something changed. */
  subscribe(listener: (snapshot: EngineSnapshot) => void): () => void {
    return this.publisher.subscribe(listener);
  }

  /** Calls `listener` with the server's status at once, then whenever a whole new one arrives. */
  subscribeStatus(listener: (update: StatusUpdate) => void): () => void {
    return this.statusFeed.subscribe(listener);
  }

  /** The current state as plain data (amounts as decimal strings). */
  getSnapshot(): EngineSnapshot {
    // Regen and passive income move with time alone; the pushed snapshots follow them on the 1 s tick.
    const now = this.deps.clock.now();
    if (this.accruePassive(now) || this.snapshot?.energy !== this.energyNow(now)) this.snapshot = null;
    if (!this.snapshot) this.snapshot = this.buildSnapshot();
    return this.snapshot;
  }

  /**
   * §4: applies up to `count` taps now, as the server will (engine/rules/clicks.ts on the local energy
   * model and tap clock); returns how many applied. Energy refusing a tap says the §8 message.
   */
  tap(count = 1): number {
    if (!this.ready || this.stopped || !Number.isInteger(count) || count <= 0) return 0;
    const now = this.deps.clock.now();
    const out = this.takeTaps(count, now, true);
    if (out.refusedBy === 'energy') this.say(messages.noEnergy);
    if (out.accepted === 0) return 0;
    this.tapStreak += out.accepted;
    this.lastTapMs = now;
    this.timers.ensure('streak', economy.clickCounterResetIdleMs, () => this.onStreakTimer());
    return out.accepted;
  }

  /** §7: claims offline income first, then buys one level of `levelKey`. */
  async upgrade(levelKey: number): Promise<ActionResult> {
    return this.serverAction(async () => {
      this.outbox.flush();
      if (!(await this.claim()).ok) return failed;
      const result = await this.lane(() => this.deps.transport.updateLevel(levelKey));
      // §8: the server's refusal (with its code, which the mini-app translates), else the generic failure.
      if (!result.ok) return result.message ? result : failed;
      this.accept(result.status);
      return { ok: true, message: messages.upgradeSuccess };
    });
  }

  /** §7: claims the passive income now (the 90 s timer does it too). */
  async claim(): Promise<ActionResult> {
    return this.serverAction(async () => {
      this.accept((await this.lane(() => this.deps.transport.claim())).status);
      return { ok: true, message: messages.claimedSuccessful };
    });
  }

  /** An action the server decides: only once ready; a transport failure is noted and answered with §8's generic message. */
  private async serverAction(act: () => Promise<ActionResult>): Promise<ActionResult> {
    if (!this.ready || this.stopped) return failed;
    try {
      return await act();
    } catch (error) {
      this.noteFailure(error);
      return failed;
    }
  }

  /** Reloads the status and reconciles. */
  async refresh(): Promise<void> {
    try {
      this.accept(await this.lane(() => this.deps.transport.getStatus()));
    } catch (error) {
      this.noteStatusFailure(error);
    }
  }

  /** Sends waiting batches now instead of at the next retry (e.g. when the network comes back). */
  retryNow(): void {
    if (!this.ready) return void this.refresh();
    this.outbox.retryNow();
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
    if (this.publisher.behind) this.publisher.request();
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
    // Auto-clicks are taps: the same rule, and they count in the human-rate allowance (docs/rules.md §4).
    this.takeTaps(autoClickAmount(finger), now, false);
  }

  // --- taps and batches -----------------------------------------------------------------------

  /** Runs the tap rule on the device's model and queues the accepted taps for the server. */
  private takeTaps(requested: number, now: number, byUser: boolean): TapOutcome {
    const state = { energy: this.energy, energyAtMs: this.energyAtMs, energyLevel: this.energyLevel, fingerLevel: this.fingerLevel, tapClockMs: this.tapClockMs, tapBoostUntilMs: this.tapBoostUntilMs };
    const out = applyTaps(state, requested, now, this.rules);
    if (out.accepted === 0) return out;
    this.energy = out.energy;
    this.energyAtMs = out.energyAtMs;
    this.tapClockMs = out.tapClockMs;
    this.outbox.add(out.accepted, now, byUser);
    this.applied += out.accepted;
    this.markDirty();
    return out;
  }

  // --- server answers -------------------------------------------------------------------------

  private async loadStatus(): Promise<void> {
    for (let attempt = 0; !this.stopped && !this.ready; attempt++) {
      try {
        this.accept(await this.lane(() => this.deps.transport.getStatus()));
        return;
      } catch (error) {
        this.noteStatusFailure(error);
        if (this.stopped) return;
        await new Promise<void>((resolve) => {
          this.wakeStart = resolve;
          this.timers.set('status', retryDelayMs(attempt), resolve);
        });
      }
    }
  }

  /**
   * A whole status from the server: reconciles with it and pushes it to the status listeners,
   * right after the snapshot it makes, so the page never shows a status ahead of its snapshot.
   */
  private accept(status: UserStatus): void {
    this.reconcile(status);
    if (this.stopped) return;
    this.statusFeed.publish(() => this.publisher.pushNow());
  }

  /** A status load failed: with no status yet, the page learns that it has none (§2 step 1). */
  private noteStatusFailure(error: unknown): void {
    this.noteFailure(error);
    if (!this.stopped) this.statusFeed.fail();
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
    if (firstStatus) {
      this.offlineOffer = status.offlinePassiveReward;
      this.offlineOfferClaimedAt = status.lastClaimedTime;
    } else if (status.lastClaimedTime !== this.offlineOfferClaimedAt) {
      // Claimed since (by the player, the 90 s timer or an upgrade): the amount is in the balance now.
      this.offlineOffer = '0';
    }
    this.status = status;
    this.bankedEarn = money(status.totalEarn);
    this.totalClickBanked = status.totalClick;
    this.fingerLevel = status.fingerLevel;
    this.energyLevel = status.energyLevel;
    this.serverOffsetMs = status.serverTime - now;
    this.tapBoostUntilMs = status.tapBoostUntil ? status.tapBoostUntil - this.serverOffsetMs : 0;
    if (levelsChanged) {
      this.levels = { ...status.passiveEarnLevel };
      this.perSecond = passivePerSecond(this.levels);
      this.perSecondMoney = money(this.perSecond);
    }
    // Keep the local 5 s regen phase: the server's own phase is not on the wire. The first status
    // starts a fresh phase (the engine had none), so the first +1 comes a full 5 s later.
    const max = maxEnergy(this.energyLevel);
    const phaseMs = !firstStatus && this.energy < max ? Math.max(0, now - this.energyAtMs) % economy.energyRegenIntervalMs : 0;
    this.energy = Math.min(max, Math.max(0, status.availableEnergy - tapEnergy(this.outbox.count, this.rules)));
    this.energyAtMs = now - (this.energy < max ? phaseMs : 0);
    this.passiveSeconds = -1;
    this.accruePassive(now);
    this.online = true;
    this.markDirty();
    if (!this.timersStarted) {
      // The first status (from start, or from a refresh while start was backing off) starts the game.
      this.timersStarted = true;
      this.startTimers();
      void this.outbox.send();
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
    this.publisher.request();
  }

  private buildSnapshot(): EngineSnapshot {
    const now = this.deps.clock.now();
    const pendingTaps = this.outbox.count;
    const multiplier = tapMultiplier(this.tapBoostUntilMs, now);
    const totalEarn = pendingTaps === 0 ? this.bankedEarn : this.bankedEarn.plus(tapEarnings(pendingTaps, this.fingerLevel, multiplier));
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
      clickValue: clickValue(this.fingerLevel) * multiplier,
      passivePerSecond: this.perSecond,
      fingerLevel: this.fingerLevel,
      energyLevel: this.energyLevel,
      levels: this.levels,
      totalClick: this.totalClickBanked + pendingTaps,
      tapStreak: this.tapStreak,
      pendingTaps,
      offlineReward: this.offlineOffer,
      message: this.message,
    };
  }
}

/** §8's generic failure. */
const failed: ActionResult = { ok: false, message: messages.somethingWrong };
