/** What the leaderboard feature offers the routes and the other features: they import it from here and nowhere else (docs/architecture.md, "Server layout"). */
export { leaderboardMetrics } from './metrics.ts';
export { applyPendingRanks, rebuildRanks } from './rank-view.ts';
export type { RankApply, RankRebuild } from './rank-view.ts';
export { ranksJob } from './ranks-job.ts';
export type { RanksTick } from './ranks-job.ts';
export { refreshStatsCache, rebuildStatsCache, currentPlayers } from './stats-cache.ts';
export { leaderboardFromView } from './leaderboard.ts';
export { leaderboardFromRedis } from './redis-ranks.ts';
export { readStatsCache } from './stats-cache.ts';
export { leaderboardSettings } from './settings.ts';
