/**
 * The public stats' refresh, composed into the server's one schema by server/background/settings.ts;
 * every key is the env variable's own name.
 */
import { positiveMs } from '../core/config/kinds.ts';

export const leaderboardSettings = {
  STATS_REFRESH_MS: positiveMs(60_000),
};
