/**
 * The ranks job (docs/scaling.md "Leaderboard"): every second, in every process, it applies the
 * balance changes marked since the last apply to the ranked view (server/leaderboard/rank-view.ts;
 * one process at a time, the others find the lock taken and skip), then, with Redis, brings the
 * sorted set to the view's version (server/leaderboard/redis-ranks.ts). Its work per tick grows
 * with the players whose MONEY changed, not with the players: a rank is about a second stale.
 * When more marks wait than an apply should take on (a bulk import, a restore, a launch burst:
 * `rebuildThreshold`), it rebuilds the view from scratch instead, into new tables swapped in by
 * renames, readers keeping the previous version meanwhile (docs/scaling.md "A bulk import"); a
 * rebuild that stopped between its build and its swap is swapped in by the next tick.
 *
 * Every process reports the queue and the staleness after each tick (money_ranks_marks_waiting,
 * money_ranks_lag_seconds; docs/operations.md), read from the database, so a process that skipped
 * the tick reports what the applying one left.
 */
import type { Db } from '../core/db/db.ts';
import type { RedisHandle } from '../core/redis.ts';
import { leaderboardMetrics } from './metrics.ts';
import { catchUpRanks, marksWaiting, rankMeta, rebuildThreshold, type RankApply, type RankRebuild } from './rank-view.ts';
import { syncRedisRanks, type RedisSync } from './redis-ranks.ts';

export interface RanksTick {
  /** The marks applied (null: another process was applying, or the view was rebuilt instead). */
  applied: RankApply | null;
  /** The view rebuilt from scratch because `waiting` marks passed the threshold (null: another process held the view). */
  rebuilt?: RankRebuild | null;
  /** The marks waiting when the tick began, counted up to the rebuild threshold. */
  waiting: number;
  /** With Redis: what the mirror did. */
  redis?: RedisSync;
}

/**
 * The job as the scheduler runs it; resolves null when there was nothing to do. `opts` (tests):
 * the rebuild threshold and the marks an apply takes, instead of the defaults for a million players.
 */
export const ranksJob = (db: Db, redis?: RedisHandle, opts: { rebuildAt?: number; maxMarks?: number } = {}) => {
  /** The last time this process found no mark waiting. */
  let emptySeenMs = 0;
  return async (nowMs: number): Promise<RanksTick | null> => {
    const started = performance.now();
    // Reported before the work too: a rebuild or a long apply holds the tick for seconds.
    const step = await catchUpRanks(db, nowMs, {
      ...opts,
      onWaiting: (waiting, caughtUpAtMs) => {
        if (waiting === 0) emptySeenMs = nowMs;
        setLag(nowMs, waiting, caughtUpAtMs, emptySeenMs);
      },
    });
    // A Redis fault throws here, after the view's changes are committed: the next tick catches up.
    const sync = redis !== undefined && redis.ready() ? await syncRedisRanks(db, redis) : undefined;
    await reportLag(db, nowMs + (performance.now() - started), emptySeenMs, opts.rebuildAt);
    const applied = step.kind === 'apply' ? step.applied : null;
    const didWork = (applied !== null && applied.marks > 0) || step.kind === 'rebuild' || (sync !== undefined && sync.kind !== 'current');
    if (!didWork) return null;
    return { applied, ...(step.kind === 'rebuild' ? { rebuilt: step.rebuilt } : {}), waiting: step.waiting, ...(sync !== undefined ? { redis: sync } : {}) };
  };
};

/**
 * The marks still waiting (up to the rebuild threshold) and, while any waits, the time since the
 * view last held every marked change (the later of the view's own caught-up moment and the last
 * time this process saw the queue empty: a mark after a quiet hour is a second old, not an hour).
 */
const reportLag = async (db: Db, nowMs: number, emptySeenMs: number, rebuildAt?: number) => {
  const meta = await rankMeta(db);
  setLag(nowMs, await marksWaiting(db, rebuildAt ?? rebuildThreshold(meta.total)), meta.caughtUpAtMs, emptySeenMs);
};

const setLag = (nowMs: number, waiting: number, caughtUpAtMs: number, emptySeenMs: number) => {
  leaderboardMetrics.marksWaiting.set(waiting);
  leaderboardMetrics.lagSeconds.set(waiting === 0 ? 0 : Math.max(0, nowMs - Math.max(caughtUpAtMs, emptySeenMs)) / 1_000);
};
