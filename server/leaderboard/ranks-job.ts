/**
 * The ranks job (docs/scaling.md "Leaderboard"): every second, in every process, it applies the
 * balance changes marked since the last apply to the ranked view (server/leaderboard/rank-view.ts;
 * one process at a time, the others find the lock taken and skip), then, with Redis, brings the
 * sorted set to the view's version (server/leaderboard/redis-ranks.ts). Its work per tick grows
 * with the players whose MONEY changed, not with the players: a rank is about a second stale.
 */
import type { Db } from '../core/db/db.ts';
import type { RedisHandle } from '../core/redis.ts';
import { applyPendingRanks, type RankApply } from './rank-view.ts';
import { syncRedisRanks, type RedisSync } from './redis-ranks.ts';

export interface RanksTick {
  /** The marks applied (null: another process was applying). */
  applied: RankApply | null;
  /** With Redis: what the mirror did. */
  redis?: RedisSync;
}

/** The job as the scheduler runs it; resolves null when there was nothing to do. */
export const ranksJob = (db: Db, redis?: RedisHandle) => {
  return async (nowMs: number): Promise<RanksTick | null> => {
    const applied = await applyPendingRanks(db, nowMs);
    // A Redis fault throws here, after the view's changes are committed: the next tick catches up.
    const sync = redis !== undefined && redis.ready() ? await syncRedisRanks(db, redis) : undefined;
    const didWork = (applied !== null && applied.marks > 0) || (sync !== undefined && sync.kind !== 'current');
    return didWork ? { applied, ...(sync !== undefined ? { redis: sync } : {}) } : null;
  };
};
