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

describe('full screen (Bot API 8.0)', () => {
  const inset = (side: string) => root.style.getPropertyValue(`--inset-${side}`);

  it('keeps the expanded layout until the phone is full screen and has sent its insets, then lays them out together', async () => {
    const c = start('8.0', 'ios');
    expect(c.calls).toEqual(expect.arrayContaining(['requestFullscreen', 'lockOrientation']));
    expect(root.dataset.viewport).toBe('expanded');
    c.setFullscreen(true);
    // iOS sends the insets late: nothing moves before they arrive.
    expect(root.dataset.viewport).toBe('expanded');
    expect(inset('top')).toBe('');
    c.sendInsets({ top: 47, bottom: 34 }, { top: 46 });
    expect(root.dataset.viewport).toBe('fullscreen');
    expect(inset('top')).toBe('93px');
    expect(inset('bottom')).toBe('34px');
    expect(root.dataset.viewportSettling).toBe('');

    await mountApp('/');
    await button('Tap the coin');
    expect(getComputedStyle(await find('.app')).paddingTop).toBe('93px');
    const nav = await find('nav.nav');
    expect(getComputedStyle(nav).paddingBottom).toBe('40px');
    expect(nav.getBoundingClientRect().bottom).toBeLessThanOrEqual(window.innerHeight);

    c.sendInsets({ top: 0, bottom: 0 }, { top: 0 });
    c.setFullscreen(false);
    expect(root.dataset.viewport).toBe('expanded');
    expect(inset('top')).toBe('');
  });

  it('uses the insets the client has when none arrive after the switch', () => {
    vi.useFakeTimers();
    const c = installFakeClient({ version: '8.0', platform: 'android' });
    client = c;
    c.sendInsets({ top: 24 }, { top: 48 });
    stopTelegram = initTelegram();
    c.setFullscreen(true);
    expect(root.dataset.viewport).toBe('expanded');
    vi.advanceTimersByTime(1_000);
    expect(root.dataset.viewport).toBe('fullscreen');
    expect(inset('top')).toBe('72px');
  });

  it('stays expanded when a phone ignores the request, and expands again after the wait', () => {
    vi.useFakeTimers();
    const c = start('8.0', 'ios');
    const expands = () => c.calls.filter((name) => name === 'expand').length;
    expect(expands()).toBe(1);
    vi.advanceTimersByTime(1_500);
    expect(expands()).toBe(2);
    expect(root.dataset.viewport).toBe('expanded');
    expect(c.unsupported).toEqual([]);
  });

  it('stays expanded when the client refuses full screen', () => {
    const c = start('8.0', 'android');
    c.emit('fullscreenFailed', { error: 'UNSUPPORTED' });
    c.sendInsets({ top: 24 });
    expect(root.dataset.viewport).toBe('expanded');
  });

  it('leaves desktop clients windowed', () => {
    for (const platform of ['tdesktop', 'macos', 'web', 'weba']) {
      const c = start('8.0', platform);
      expect(c.calls).not.toContain('requestFullscreen');
      expect(c.calls).not.toContain('lockOrientation');
      stopTelegram?.();
      c.restore();
    }
    client = null;
    stopTelegram = null;
  });
});
