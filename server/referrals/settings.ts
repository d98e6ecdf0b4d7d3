/**
 * The invite rule's channel check (docs/rules.md §9), composed into the server's one schema by
 * server/background/settings.ts; every key is the env variable's own name.
 */
import { positiveMs } from '../core/config/kinds.ts';

export const referralsSettings = {
  /** How often the job checks the channel membership of friends who reached $100 (§9 invite rule). */
  CHANNEL_CHECK_MS: positiveMs(30_000),
  /** When a friend is not (yet) a channel member, how long until they are checked again. */
  CHANNEL_RECHECK_MS: positiveMs(600_000),
};
