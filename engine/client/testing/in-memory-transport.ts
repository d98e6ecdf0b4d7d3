import type { ClaimResult, ClickResult, UserStatus } from '../../wire/api-types.ts';
import { applyTaps, tapRules, type TapRules } from '../../rules/clicks.ts';
import { energyLimitKey, handheldKey, type BoostKey } from '../../rules/economy.ts';
import { availableEnergy, maxEnergy } from '../../rules/energy.ts';
import { money, toWire, zero, type Money } from '../../rules/money.ts';
import { passiveAccrued } from '../../rules/passive.ts';
import { priceOf } from '../../rules/prices.ts';
import { TransportError, type Clock, type Scheduler, type TapBatch, type Transport, type UpdateLevelResult } from '../ports.ts';
import { boostLevel, isBoostKey, upgradeRefusal } from '../../rules/upgrades.ts';

/** How the next call fails: `drop` before the server sees it, `lose` after it processed it. */
export type FailMode = 'drop' | 'lose';

/** One call as it reached the server, at `atMs`, and what became of it. */
export interface TransportCall {
  kind: 'status' | 'click' | 'claim' | 'update-level';
  body?: unknown;
  atMs: number;
  /** `answered`; `lost` (processed, its answer lost); `dropped` and `rejected` (never processed). */
  outcome: 'answered' | 'lost' | 'dropped' | 'rejected';
  /** What the server answered (also for a lost answer); absent when it never processed the call. */
  answer?: unknown;
}

/** One change of the dollar balance (docs/rules.md §7): the ledger sums to `totalEarn`. */
export interface LedgerRow {
  amount: string;
  kind: 'opening' | 'click' | 'passive' | 'purchase';
  reference: string;
}

export interface InMemoryTransportOptions {
  /** Answers arrive this long after the call (through the scheduler); 0 answers at once. */
  latencyMs?: number;
  scheduler?: Scheduler;
  /** The tap rule's numbers; the game's own unless a test runs the rule with others. */
  rules?: TapRules;
  start?: Partial<Pick<UserStatus, 'totalEarn' | 'fingerLevel' | 'energyLevel' | 'passiveEarnLevel' | 'availableEnergy' | 'totalClick'>>;
}

/**
 * The engine's Transport answered in memory, for tests and benchmarks: a tiny server following
 * docs/rules.md with the engine's own rules: the tap rule of engine/rules/clicks.ts (energy from
 * (energy, energyAt), the human-rate allowance), idempotent batchIds, the 3 h passive cap,
 * claim-then-buy, and a ledger row for every change of the balance.
 */
export class InMemoryTransport implements Transport {
  totalEarn: Money;
  totalClick: number;
  fingerLevel: number;
  energyLevel: number;
  levels: Record<string, number>;
  energy: number;
  energyAtMs: number;
  /** The human-rate tap clock: 0 holds the full idle credit (a player who has not tapped lately). */
  tapClockMs = 0;
  lastClaimedMs: number;
  readonly answers = new Map<string, ClickResult>();
  readonly ledger: LedgerRow[] = [];
  /** Every call as it reached the server, dropped ones included (see `outcome`). */
  readonly calls: TransportCall[] = [];
  private readonly rules: TapRules;
  offline = false;
  private failures: FailMode[] = [];
  private rejectNext: { status: number; count: number } | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly options: InMemoryTransportOptions = {},
  ) {
    const s = options.start ?? {};
    this.rules = options.rules ?? tapRules;
    this.totalEarn = money(s.totalEarn ?? '0');
    if (!this.totalEarn.isZero()) this.ledger.push({ amount: toWire(this.totalEarn), kind: 'opening', reference: 'start' });
    this.totalClick = s.totalClick ?? 0;
    this.fingerLevel = s.fingerLevel ?? 1;
    this.energyLevel = s.energyLevel ?? 1;
    this.levels = { ...(s.passiveEarnLevel ?? {}) } as Record<string, number>;
    this.energy = s.availableEnergy ?? maxEnergy(this.energyLevel);
    this.energyAtMs = clock.now();
    this.lastClaimedMs = clock.now();
  }

  /** Makes the next calls fail, one mode per call. */
  failNext(...modes: FailMode[]): void {
    this.failures.push(...modes);
  }

  /** Failures queued by failNext and not yet met by a call. */
  get queuedFailures(): number {
    return this.failures.length;
  }

  /** Ends every failure: back online, no queued failures. */
  heal(): void {
    this.offline = false;
    this.failures = [];
    this.rejectNext = null;
  }

  /** Makes the next `count` calls answer an HTTP error status. */
  rejectWith(status: number, count = 1): void {
    this.rejectNext = { status, count };
  }

  get availableEnergy(): number {
    return availableEnergy(this.energy, this.energyAtMs, this.clock.now(), this.energyLevel);
  }

  status(): UserStatus {
    const now = this.clock.now();
    return {
      id: '1',
      refcode: 'Abc123',
      refLevel: 1,
      inviteCnt: 0,
      teleUsername: 'player',
      teleAvatar: null,
      teleAge: 100,
      twUsername: null,
      twAvatar: null,
      twAge: 0,
      isPremium: false,
      nextClaimTime: this.lastClaimedMs + 90_000,
      lastClaimedTime: this.lastClaimedMs,
      totalEarn: toWire(this.totalEarn),
      totalMoney: '0',
      totalRef: '0',
      totalMoneyRef: '0',
      totalClick: this.totalClick,
      passiveEarnLevel: { ...this.levels },
      fingerLevel: this.fingerLevel,
      energyLevel: this.energyLevel,
      availableEnergy: this.availableEnergy,
      ageReward: { avgAge: 0, teleReward: '0', twReward: '0', premiumReward: '0', total: '0' },
      // As the server says it (server/players/users.ts): passive income since the last claim.
      offlinePassiveReward: toWire(passiveAccrued(this.levels, this.lastClaimedMs, now)),
      offlinePassiveRewardPerSecond: '0',
      pendingClaimReward: '0',
      pendingEasterReward: '0',
      isClaimedWelcome: true,
      isClaimedEaster: false,
      boostChannelCnt: 0,
      serverTime: now,
      airdropReview: { state: 'clear', reasons: [] },
    };
  }

  getStatus(): Promise<UserStatus> {
    return this.call('status', undefined, () => this.status());
  }

  click(payload: TapBatch): Promise<ClickResult> {
    return this.call('click', payload, () => {
      const first = this.answers.get(payload.batchId);
      if (first) return first;
      const state = { energy: this.energy, energyAtMs: this.energyAtMs, energyLevel: this.energyLevel, fingerLevel: this.fingerLevel, tapClockMs: this.tapClockMs };
      const out = applyTaps(state, payload.click, this.clock.now(), this.rules);
      ({ energy: this.energy, energyAtMs: this.energyAtMs, tapClockMs: this.tapClockMs } = out);
      this.credit(money(out.earned), 'click', payload.batchId);
      this.totalClick += out.accepted;
      const answer: ClickResult = { batchId: payload.batchId, accepted: out.accepted, status: this.status() };
      this.answers.set(payload.batchId, answer);
      return answer;
    });
  }

  claim(): Promise<ClaimResult> {
    return this.call('claim', undefined, () => {
      const now = this.clock.now();
      const claimed = passiveAccrued(this.levels, this.lastClaimedMs, now);
      this.credit(claimed, 'passive', `claim:${now}`);
      this.lastClaimedMs = now;
      return { claimed: toWire(claimed), status: this.status() };
    });
  }

  updateLevel(levelKey: number): Promise<UpdateLevelResult> {
    return this.call('update-level', { levelKey }, (): UpdateLevelResult => {
      if (!isBoostKey(levelKey)) return { ok: false, message: 'levelKey must be a boost key from 1 to 21' };
      const key: BoostKey = levelKey;
      const owned = { fingerLevel: this.fingerLevel, energyLevel: this.energyLevel, passiveEarnLevel: this.levels };
      const refusal = upgradeRefusal(key, owned, this.totalEarn, '0');
      if (refusal) return { ok: false, message: `Upgrade refused: ${refusal}` };
      const level = boostLevel(owned, key);
      this.credit(zero.minus(priceOf(key, level)), 'purchase', `level:${key}:${level + 1}`);
      if (key === handheldKey) this.fingerLevel++;
      else if (key === energyLimitKey) {
        // As the server does: the energy regenerated so far is materialised, so the higher maximum
        // does not back-date regeneration.
        this.energy = this.availableEnergy;
        this.energyAtMs = this.clock.now();
        this.energyLevel++;
      } else this.levels[key] = (this.levels[key] ?? 0) + 1;
      return { ok: true, status: this.status() };
    });
  }

  /** Changes the balance by `amount` with its ledger row (none for zero). */
  private credit(amount: Money, kind: LedgerRow['kind'], reference: string): void {
    if (amount.isZero()) return;
    this.totalEarn = this.totalEarn.plus(amount);
    this.ledger.push({ amount: toWire(amount), kind, reference });
  }

  private call<T>(kind: TransportCall['kind'], body: unknown, handle: () => T): Promise<T> {
    const mode = this.offline ? 'drop' : this.failures.shift();
    const call: TransportCall = { kind, body, atMs: this.clock.now(), outcome: 'answered' };
    this.calls.push(call);
    let outcome: () => T;
    if (this.rejectNext && this.rejectNext.count > 0) {
      const status = this.rejectNext.status;
      if (--this.rejectNext.count === 0) this.rejectNext = null;
      call.outcome = 'rejected';
      outcome = () => {
        throw new TransportError(`HTTP ${status}`, status, status >= 500 || status === 401 || status === 429);
      };
    } else if (mode === 'drop') {
      call.outcome = 'dropped';
      outcome = () => {
        throw new TransportError('network down', null, true);
      };
    } else {
      const answer = handle();
      call.answer = answer;
      if (mode === 'lose') call.outcome = 'lost';
      outcome =
        mode === 'lose'
          ? () => {
              throw new TransportError('answer lost', null, true);
            }
          : () => answer;
    }
    const { latencyMs = 0, scheduler } = this.options;
    if (latencyMs === 0 || !scheduler) return new Promise<T>((resolve) => resolve(outcome()));
    return new Promise<T>((resolve, reject) =>
      scheduler.setTimeout(() => {
        try {
          resolve(outcome());
        } catch (error) {
          reject(error as Error);
        }
      }, latencyMs),
    );
  }
}

/** Sequential ids for tests (`b1`, `b2`, …). */
export const counterIds = (prefix = 'b'): (() => string) => {
  let n = 0;
  return () => `${prefix}${++n}`;
};
