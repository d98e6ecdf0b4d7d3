/** What the leaderboard feature offers the other features: they import it from here and nowhere else (docs/architecture.md, "Server layout"). */
export { buildRankSnapshot, ranksJob } from './rank-snapshot.ts';
export type { RankBuild } from './rank-snapshot.ts';
export { refreshStatsCache } from './stats-cache.ts';
