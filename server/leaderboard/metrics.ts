/**
 * The leaderboard's series (docs/operations.md "Metrics"), in the core registry
 * (server/core/metrics.ts): the pages Redis could not answer, and the ranks job's queue and
 * staleness, read from the database after each tick (server/leaderboard/ranks-job.ts).
 */
import { counterBy, gauge } from '../core/metrics.ts';

export const leaderboardMetrics = {
  rankFallbacks: counterBy('reason', 'money_redis_rank_fallbacks_total', 'Leaderboard pages read from the PostgreSQL snapshot although REDIS_URL is set, by reason.'),
  marksWaiting: gauge({
    name: 'money_ranks_marks_waiting',
    help: 'Balance changes marked and not yet applied to the ranked view, counted up to the rebuild threshold (the highest over workers).',
    aggregator: 'max',
  }),
  lagSeconds: gauge({
    name: 'money_ranks_lag_seconds',
    help: 'While marks wait: seconds since the ranked view last held every marked change; 0 when none waits (the highest over workers).',
    aggregator: 'max',
  }),
} as const;

/** The reasons of money_redis_rank_fallbacks_total (bounded). */
export type RankFallbackReason = 'unavailable' | 'error' | 'unpublished' | 'unknown_player';

// An alert reads the fallbacks' rate: each reason is a series at 0 from the start, so its first event is an increase.
for (const reason of ['unavailable', 'error', 'unpublished', 'unknown_player'] satisfies RankFallbackReason[]) leaderboardMetrics.rankFallbacks.inc({ reason }, 0);
