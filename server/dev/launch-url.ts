import { randomBytes } from 'node:crypto';
import { signInitData, type TelegramUser } from '../players/init-data.ts';

/** The demo player the printed launch link signs in as. */
export const demoUser: TelegramUser = {
  id: 5_123_456_789,
  first_name: 'Demo',
  last_name: 'Player',
  username: 'demo_player',
  language_code: 'en',
  is_premium: false,
};

/** Telegram's dark theme, as its web client passes it in tgWebAppThemeParams. */
export const demoThemeParams = {
  bg_color: '#212121',
  text_color: '#ffffff',
  hint_color: '#aaaaaa',
  link_color: '#8774e1',
  button_color: '#8774e1',
  button_text_color: '#ffffff',
  secondary_bg_color: '#0f0f0f',
  header_bg_color: '#212121',
  accent_text_color: '#8774e1',
  section_bg_color: '#212121',
  section_header_text_color: '#aaaaaa',
  subtitle_text_color: '#aaaaaa',
  destructive_text_color: '#e53935',
} as const;

export interface LaunchOptions {
  /** The public origin, e.g. http://localhost:3000; '' makes a path-only URL. */
  publicUrl: string;
  botToken: string;
  user?: TelegramUser;
  /** A referral code: goes into the init data's start_param and the URL's tgWebAppStartParam, as Telegram does. */
  startParam?: string;
  /** Signing time (the server's clock), epoch ms. */
  nowMs: number;
}

/**
 * A mini-app launch URL exactly as Telegram's web client opens it: `<origin>/app`, the start
 * parameter in the query, and in the hash the signed init data (`tgWebAppData`, itself a query
 * string, so encoded twice), the Bot API version, the platform and the theme.
 */
export const launchUrl = (opts: LaunchOptions): string => {
  const user = opts.user ?? demoUser;
  const initData = signInitData(
    opts.botToken,
    {
      query_id: `AA${randomBytes(16).toString('base64url')}`,
      user,
      chat_instance: '-4123456789012345678',
      chat_type: 'sender',
      ...(opts.startParam !== undefined ? { start_param: opts.startParam } : {}),
    },
    opts.nowMs,
  );
  const hash = new URLSearchParams({
    tgWebAppData: initData,
    tgWebAppVersion: '8.0',
    tgWebAppPlatform: 'web',
    tgWebAppThemeParams: JSON.stringify(demoThemeParams),
  });
  const query = opts.startParam !== undefined ? `?${new URLSearchParams({ tgWebAppStartParam: opts.startParam })}` : '';
  return `${opts.publicUrl.replace(/\/+$/, '')}/app${query}#${hash.toString()}`;
};

/** The raw init data inside a launch URL (what the mini-app sends as Authorization). */
export const initDataOf = (url: string): string =>
  new URLSearchParams(new URL(url, 'http://localhost').hash.slice(1)).get('tgWebAppData') ?? '';
