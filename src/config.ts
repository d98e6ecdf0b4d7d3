import { apiPrefix, type PublicConfig } from '../engine/wire/api-types.ts';

/** Defaults for `vite dev` and tests, where no server has written the config block. */
export const defaultConfig: PublicConfig = {
  botUsername: 'money_clicker_bot',
  twitterUrl: 'https://x.com/money',
  channelUrl: 'https://t.me/money_channel',
  communityUrl: 'https://t.me/money_community',
  adsgramBlockId: '',
  turnstileSiteKey: '',
  storyShareUserId: '',
  apiBase: apiPrefix,
};

/** Reads the server's `<script type="application/json" id="money-config">` block once. */
export const readConfig = (doc: Document = document): PublicConfig => {
  const block = doc.getElementById('money-config');
  if (!block?.textContent) return defaultConfig;
  try {
    return { ...defaultConfig, ...(JSON.parse(block.textContent) as Partial<PublicConfig>) };
  } catch {
    return defaultConfig;
  }
};

export const config: PublicConfig = typeof document === 'undefined' ? defaultConfig : readConfig();

/** The bot's t.me link, with an optional start parameter. */
export const botLink = (startParam?: string): string =>
  `https://t.me/${config.botUsername}${startParam ? `?start=${encodeURIComponent(startParam)}` : ''}`;
