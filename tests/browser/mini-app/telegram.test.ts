import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { activateLocale } from '../../../src/i18n/i18n.ts';
import { initTelegram, loadTelegramSdk, shareText, shareUrl, startParam } from '../../../src/telegram.ts';
import '../../../src/mini-app/styles/base.css';

/** What a Telegram client does to tell the page its theme changed (the WebView protocol). */
const sendTheme = (themeParams: Record<string, string>) =>
  (window as unknown as { Telegram: { WebView: { receiveEvent(type: string, data: unknown): void } } }).Telegram.WebView.receiveEvent(
    'theme_changed',
    { theme_params: themeParams },
  );

const root = document.documentElement;
// Telegram's own script, as the shell loads it after the first screen.
beforeAll(() => loadTelegramSdk());
afterAll(() => {
  root.removeAttribute('data-theme');
  root.removeAttribute('style');
});

type WebApp = { ready(): void; expand(): void; disableVerticalSwipes(): void; isVersionAtLeast(v: string): boolean };
const webApp = () => (window as unknown as { Telegram: { WebApp: WebApp } }).Telegram.WebApp;

describe('telegram', () => {
  it('calls ready(), expand() and, on clients that have it, disableVerticalSwipes()', () => {
    const app = webApp();
    const ready = vi.spyOn(app, 'ready');
    const expand = vi.spyOn(app, 'expand');
    const noSwipes = vi.spyOn(app, 'disableVerticalSwipes').mockImplementation(() => undefined);
    vi.spyOn(app, 'isVersionAtLeast').mockReturnValue(true);
    try {
      initTelegram();
      expect(ready).toHaveBeenCalledOnce();
      expect(expand).toHaveBeenCalledOnce();
      expect(noSwipes).toHaveBeenCalledOnce();
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('maps theme params to CSS variables, and the scheme onto <html data-theme>, light and dark', () => {
    initTelegram();
    sendTheme({ bg_color: '#17212b', text_color: '#f5f5f5', hint_color: '#708499', section_bg_color: '#232e3c' });
    expect(root.dataset.theme).toBe('dark');
    expect(root.style.getPropertyValue('--tg-bg')).toBe('#17212b');
    expect(root.style.getPropertyValue('--tg-section')).toBe('#232e3c');
    // The app's own palette follows Telegram's: --bg falls back to our colour only without a theme.
    expect(getComputedStyle(document.body).backgroundColor).toBe('rgb(23, 33, 43)');

    sendTheme({ bg_color: '#ffffff', text_color: '#000000' });
    expect(root.dataset.theme).toBe('light');
    expect(root.style.getPropertyValue('--tg-bg')).toBe('#ffffff');
    expect(getComputedStyle(document.body).color).toBe('rgb(0, 0, 0)');
  });

  it('shares through t.me/share/url with the referral link and the fixed text, in the player\'s language', async () => {
    await activateLocale('en', ['app']);
    expect(shareText()).toBe('Tap the coin with me on MONEY and we both get a bonus!');
    const url = new URL(shareUrl('https://t.me/money_bot/app?startapp=Ab3dE9'));
    expect(`${url.origin}${url.pathname}`).toBe('https://t.me/share/url');
    expect(url.searchParams.get('url')).toBe('https://t.me/money_bot/app?startapp=Ab3dE9');
    expect(url.searchParams.get('text')).toBe(shareText());
    await activateLocale('ru', ['app']);
    expect(new URL(shareUrl('https://t.me/b')).searchParams.get('text')).toMatch(/MONEY/);
    expect(shareText()).not.toBe('Tap the coin with me on MONEY and we both get a bonus!');
    await activateLocale('en', ['app']);
  });

  it('reads the start parameter from tgWebAppStartParam', () => {
    history.replaceState(null, '', '?tgWebAppStartParam=Zz9Yy8');
    try {
      expect(startParam()).toBe('Zz9Yy8');
    } finally {
      history.replaceState(null, '', location.pathname);
    }
    expect(startParam()).toBeNull();
  });
});
