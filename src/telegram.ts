import WebAppSdk from '@twa-dev/sdk';
import { i18n } from './i18n/i18n.ts';

/**
 * The one module that touches the Telegram SDK (@twa-dev/sdk). Everything else asks this module:
 * the init data, the start parameter, the theme, the back button, haptics, links and sharing.
 * Every call is guarded: outside Telegram (tests, a plain browser) the SDK methods exist but
 * some log "not supported" on old clients, so we check versions where Telegram documents them.
 */
// The SDK module runs Telegram's script, which installs window.Telegram.WebApp. The package is
// CommonJS and bundlers disagree on its default-export interop (Vite's dev server gives the
// WebApp, the production build the exports object), so fall back to the global it installed.
const app: typeof WebAppSdk =
  typeof (WebAppSdk as { onEvent?: unknown }).onEvent === 'function'
    ? WebAppSdk
    : (window as unknown as { Telegram: { WebApp: typeof WebAppSdk } }).Telegram.WebApp;

/** The raw init data, sent as `Authorization` on every authenticated call (§6). */
export const initData = (): string => app.initData ?? '';

/** The start parameter (`tgWebAppStartParam`): a referral code (§2). */
export const startParam = (): string | null => {
  const fromSdk = app.initDataUnsafe?.start_param;
  if (fromSdk) return fromSdk;
  const fromQuery = new URLSearchParams(window.location.search).get('tgWebAppStartParam');
  return fromQuery || null;
};

/** The Telegram user as the client sees it (for avatar fallbacks and the story-share id). */
export const telegramUser = () => app.initDataUnsafe?.user ?? null;

const themeVariable: Record<string, string> = {
  bg_color: '--tg-bg',
  secondary_bg_color: '--tg-bg-2',
  text_color: '--tg-text',
  hint_color: '--tg-hint',
  link_color: '--tg-link',
  button_color: '--tg-button',
  button_text_color: '--tg-button-text',
  section_bg_color: '--tg-section',
  destructive_text_color: '--tg-destructive',
};

/** Maps Telegram's theme params to CSS variables and the light/dark scheme onto <html data-theme>. */
export const applyTheme = (root: HTMLElement = document.documentElement): void => {
  const params = (app.themeParams ?? {}) as unknown as Record<string, string | undefined>;
  for (const [key, variable] of Object.entries(themeVariable)) {
    const value = params[key];
    if (value) root.style.setProperty(variable, value);
    else root.style.removeProperty(variable);
  }
  root.dataset.theme = app.colorScheme === 'dark' ? 'dark' : 'light';
};

const supports = (version: string): boolean => {
  try {
    return app.isVersionAtLeast(version);
  } catch {
    return false;
  }
};

/** ready(), expand(), no vertical swipes (a fast downward tap must not close the app), theme. */
export const initTelegram = (): void => {
  try {
    app.ready();
    app.expand();
    if (supports('7.7')) app.disableVerticalSwipes();
    if (supports('6.1')) {
      app.setHeaderColor('bg_color');
      app.setBackgroundColor('bg_color');
    }
  } catch (error) {
    console.warn('Telegram init', error);
  }
  applyTheme();
  app.onEvent('themeChanged', () => applyTheme());
};

/** Shows the native back button calling `onBack`, or hides it. Returns the cleanup. */
export const bindBackButton = (visible: boolean, onBack: () => void): (() => void) => {
  // No version check here: the SDK's BackButton itself warns and does nothing before Bot API 6.1.
  const button = app.BackButton;
  if (!visible) {
    button.hide();
    return () => undefined;
  }
  button.onClick(onBack);
  button.show();
  return () => {
    button.offClick(onBack);
  };
};

/**
 * Haptics. Android clients often ignore impactOccurred, while notificationOccurred works, so
 * claims use the notification kind and taps use the light impact.
 */
export const haptic = {
  tap: () => {
    if (supports('6.1')) app.HapticFeedback.impactOccurred('light');
  },
  success: () => {
    if (supports('6.1')) app.HapticFeedback.notificationOccurred('success');
  },
  error: () => {
    if (supports('6.1')) app.HapticFeedback.notificationOccurred('error');
  },
};

/** The fixed text of the share link (§7 "a fixed text"), in the player's language (docs/i18n.md). */
export const shareText = (): string => i18n._('app.share.text');

/** The t.me share link carrying the referral link and the fixed text. */
export const shareUrl = (refLink: string): string =>
  `https://t.me/share/url?url=${encodeURIComponent(refLink)}&text=${encodeURIComponent(shareText())}`;

/** Opens a t.me link inside Telegram, or a new tab outside it. */
/**
 * True inside a Telegram client: the SDK's events reach a native proxy, or the parent frame (web
 * clients). A plain browser with signed init data (the demo launch) has neither, and the SDK's
 * openLink would silently do nothing there.
 */
const inTelegramClient = (): boolean =>
  'TelegramWebviewProxy' in window || window.parent !== window || (typeof window.external === 'object' && window.external !== null && 'notify' in window.external);

export const openTelegramLink = (url: string): void => {
  if (app.initData && supports('6.1') && inTelegramClient()) app.openTelegramLink(url);
  else window.open(url, '_blank', 'noopener');
};

/** Opens an outside link (tasks, exchanges). */
export const openLink = (url: string): void => {
  if (app.initData && inTelegramClient()) app.openLink(url);
  else window.open(url, '_blank', 'noopener');
};

/** Shares the referral link through the t.me share sheet. */
export const shareRefLink = (refLink: string): void => openTelegramLink(shareUrl(refLink));

/** §2: the special user's share action is a story with the reward card image and the link. */
export const shareStory = (mediaUrl: string, refLink: string): void => {
  if (supports('7.8')) app.shareToStory(mediaUrl, { text: shareText(), widget_link: { url: refLink, name: 'MONEY' } });
  else shareRefLink(refLink);
};
