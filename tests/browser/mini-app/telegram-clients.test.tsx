import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { activateLocale } from '../../../src/i18n/i18n.ts';
import { bindBackButton, haptic, initTelegram, openLink, shareRefLink, shareStory, supports } from '../../../src/telegram.ts';
import { button, cleanup, click, find, mountApp, pointer, recordOpenedLinks } from './harness.tsx';
import { installFakeClient, type FakeClient } from './fake-telegram-client.ts';

const initDataOfClient = 'query_id=q&user=%7B%22id%22%3A5001%7D&auth_date=1&hash=abc';
const root = document.documentElement;

beforeAll(() => activateLocale('en', ['app']));

let client: FakeClient | null = null;
let stopTelegram: (() => void) | null = null;
const start = (version: string, platform: string) => {
  client = installFakeClient({ version, platform, initData: initDataOfClient });
  stopTelegram = initTelegram();
  return client;
};

afterEach(async () => {
  stopTelegram?.();
  stopTelegram = null;
  client?.restore();
  client = null;
  await cleanup();
  vi.useRealTimers();
});

describe('an old Telegram client (Bot API 6.0)', () => {
  const opened = recordOpenedLinks();

  it('starts, binds the back button, vibrates and shares without calling a method it lacks', () => {
    const c = start('6.0', 'android');
    expect(c.calls).toEqual(expect.arrayContaining(['ready', 'expand']));
    bindBackButton(true, () => undefined)();
    haptic.tap();
    haptic.success();
    shareStory('https://example.org/card.png', 'https://t.me/money_bot/app?startapp=Ab3dE9');
    expect(c.unsupported).toEqual([]);
    // 6.0 has no openTelegramLink: the share sheet opens as a link.
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatch(/^https:\/\/t\.me\/share\/url\?/);
    expect(root.dataset.viewport).toBe('expanded');
  });

  it('runs the mini-app (back button, coin, invite) with no unsupported call', async () => {
    const c = start('6.0', 'ios');
    const { state } = await mountApp('/invite');
    const invite = await button('Invite a friend');
    await vi.waitFor(() => expect(invite.disabled).toBe(false));
    await click(invite);
    expect(opened.some((url) => url.startsWith('https://t.me/share/url?'))).toBe(true);
    await click(await find('a.nav__link[href="/"]'));
    const coin = await button('Tap the coin');
    await pointer(coin, 'pointerdown', 1);
    await pointer(coin, 'pointerup', 1);
    await vi.waitFor(() => expect(document.querySelector('.coin__float')?.textContent).toMatch(/^\+/));
    expect(state.calls.length).toBeGreaterThan(0);
    expect(c.unsupported).toEqual([]);
    expect(c.calls).not.toContain('requestFullscreen');
  });
});

describe('a Telegram client of 6.1–7.x', () => {
  it('uses the back button, haptics, colours and openTelegramLink, and no 8.0 method', () => {
    const c = start('7.7', 'ios');
    const back = vi.fn();
    const unbind = bindBackButton(true, back);
    unbind();
    haptic.error();
    shareRefLink('https://t.me/money_bot/app?startapp=Ab3dE9');
    expect(c.calls).toEqual(expect.arrayContaining([
      'setHeaderColor', 'disableVerticalSwipes', 'BackButton.onClick', 'BackButton.show', 'BackButton.offClick',
      'HapticFeedback.notificationOccurred', 'openTelegramLink',
    ]));
    expect(c.calls).not.toContain('requestFullscreen');
    expect(c.unsupported).toEqual([]);
    expect(supports('fullscreen')).toBe(false);
  });
});

describe('a new Telegram client (Bot API 8.0+)', () => {
  it('opens links, shares stories and asks a phone for full screen and portrait', () => {
    const c = start('8.0', 'android');
    openLink('https://example.org/');
    shareStory('https://example.org/card.png', 'https://t.me/money_bot/app?startapp=Ab3dE9');
    expect(c.calls).toEqual(expect.arrayContaining(['openLink', 'shareToStory', 'requestFullscreen', 'lockOrientation']));
    expect(c.unsupported).toEqual([]);
    expect(supports('fullscreen')).toBe(true);
    expect(supports('deviceStorage')).toBe(false);
  });
});
