import type { ClaimResult, ClickPayload, ClickResult, UserStatus } from '../api-types.ts';
import { energyLimitKey, handheldKey, type BoostKey } from '../economy.ts';
import { availableEnergy, clickValue, spendEnergy } from '../energy.ts';
import { money, toWire, type Money } from '../money.ts';
import { passiveAccrued } from '../passive.ts';
import { priceOf } from '../prices.ts';
import { TransportError, type Clock, type Scheduler, type Transport, type UpdateLevelResult } from '../ports.ts';
import { boostLevel, isBoostKey, upgradeRefusal } from '../upgrades.ts';

/** How the next call fails: `drop` before the server sees it, `lose` after it processed it. */
export type FailMode = 'drop' | 'lose';

export interface InMemoryTransportOptions {
  /** Answers arrive this long after the call (through the scheduler); 0 answers at once. */
  latencyMs?: number;
  scheduler?: Scheduler;
  /** Taps per batch the server accepts at most (a stand-in for its human-rate allowance). */
  maxAcceptPerBatch?: number;
  start?: Partial<Pick<UserStatus, 'totalEarn' | 'fingerLevel' | 'energyLevel' | 'passiveEarnLevel' | 'availableEnergy' | 'totalClick'>>;
}

/**
 * The engine's Transport answered in memory, for tests and benchmarks: a tiny server following
 * docs/rules.md with the engine's own rules:
 * energy from (energy, energyAt), idempotent batchIds, the 3 h passive cap, claim-then-buy.
 */
export class InMemoryTransport implements Transport {
  totalEarn: Money;
  totalClick: number;
  fingerLevel: number;
  energyLevel: number;
  levels: Record<string, number>;
  energy: number;
  energyAtMs: number;
  lastClaimedMs: number;
  readonly answers = new Map<string, ClickResult>();
  /** Every call as it reached the server (dropped calls included, marked). */
  readonly calls: { kind: string; body?: unknown; dropped?: boolean }[] = [];
  offline = false;
  private failures: FailMode[] = [];
  private rejectNext: { status: number; count: number } | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly options: InMemoryTransportOptions = {},
  ) {
    const s = options.start ?? {};
    this.totalEarn = money(s.totalEarn ?? '0');
    this.totalClick = s.totalClick ?? 0;
    this.fingerLevel = s.fingerLevel ?? 1;
    this.energyLevel = s.energyLevel ?? 1;
    this.levels = { ...(s.passiveEarnLevel ?? {}) } as Record<string, number>;
    this.energy = s.availableEnergy ?? 500 * this.energyLevel;
    this.energyAtMs = clock.now();
    this.lastClaimedMs = clock.now();
  }

  /** Makes the next calls fail, one mode per call. */
  failNext(...modes: FailMode[]): void {
    this.failures.push(...modes);
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
      offlinePassiveReward: '0',
      offlinePassiveRewardPerSecond: '0',
      pendingClaimReward: '0',
      pendingEasterReward: '0',
      isClaimedWelcome: true,
      isClaimedEaster: false,
      boostChannelCnt: 0,
      serverTime: now,
    };
  }

  getStatus(): Promise<UserStatus> {
    return this.call('status', undefined, () => this.status());
  }

  click(payload: Required<ClickPayload>): Promise<ClickResult> {
    return this.call('click', payload, () => {
      const first = this.answers.get(payload.batchId);
      if (first) return first;
      const now = this.clock.now();
      const accepted = Math.min(payload.click, this.availableEnergy, this.options.maxAcceptPerBatch ?? Infinity);
      const spent = spendEnergy(this.energy, this.energyAtMs, now, this.energyLevel, accepted);
      this.energy = spent.energy;
      this.energyAtMs = spent.energyAtMs;
      this.totalEarn = this.totalEarn.plus(accepted * clickValue(this.fingerLevel));
      this.totalClick += accepted;
      const answer: ClickResult = { batchId: payload.batchId, accepted, status: this.status() };
      this.answers.set(payload.batchId, answer);
      return answer;
    });
  }

  claim(): Promise<ClaimResult> {
    return this.call('claim', undefined, () => {
      const now = this.clock.now();
      const claimed = passiveAccrued(this.levels, this.lastClaimedMs, now);
      this.totalEarn = this.totalEarn.plus(claimed);
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
      this.totalEarn = this.totalEarn.minus(priceOf(key, boostLevel(owned, key)));
      if (key === handheldKey) this.fingerLevel++;
      else if (key === energyLimitKey) this.energyLevel++;
      else this.levels[key] = (this.levels[key] ?? 0) + 1;
      return { ok: true, status: this.status() };
    });
  }

  private call<T>(kind: string, body: unknown, handle: () => T): Promise<T> {
    const mode = this.offline ? 'drop' : this.failures.shift();
    this.calls.push(mode === 'drop' ? { kind, body, dropped: true } : { kind, body });
    let outcome: () => T;
    if (this.rejectNext && this.rejectNext.count > 0) {
      const status = this.rejectNext.status;
      if (--this.rejectNext.count === 0) this.rejectNext = null;
      outcome = () => {
        throw new TransportError(`HTTP ${status}`, status, status >= 500 || status === 401 || status === 429);
      };
    } else if (mode === 'drop') {
      outcome = () => {
        throw new TransportError('network down', null, true);
      };
    } else {
      const answer = handle();
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
