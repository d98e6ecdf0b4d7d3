import { apiPrefix, type PublicConfig } from '../../engine/wire/api-types.ts';
import type { Config } from '../background/settings.ts';

/** What the browser reads from the config block: the public part of the server's config, no secrets. */
export const publicConfigOf = (config: Config): PublicConfig => ({
  botUsername: config.BOT_USERNAME,
  twitterUrl: config.TWITTER_URL,
  channelUrl: config.CHANNEL_URL,
  communityUrl: config.COMMUNITY_URL,
  adsgramBlockId: config.ADSGRAM_BLOCK_ID,
  turnstileSiteKey: config.TURNSTILE_SITE_KEY,
  storyShareUserId: config.STORY_SHARE_USER_ID,
  apiBase: apiPrefix,
  // The airdrop's published dates (the site's /airdrop page, docs/airdrop.md); absent until announced.
  ...(config.AIRDROP_REVIEW_ENDS || config.AIRDROP_SNAPSHOT_DAY
    ? { airdropDates: { reviewEnds: config.AIRDROP_REVIEW_ENDS || null, snapshotDay: config.AIRDROP_SNAPSHOT_DAY || null } }
    : {}),
});
