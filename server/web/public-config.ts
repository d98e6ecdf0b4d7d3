import { apiPrefix, type PublicConfig } from '../../engine/api-types.ts';
import type { Config } from '../core/config/config.ts';

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
});
