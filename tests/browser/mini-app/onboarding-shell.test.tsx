import { afterEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { currentSectionKey } from '../../../src/mini-app/onboarding/onboarding.tsx';
import { demoStatus, demoTasks, withTask } from './fake-api.ts';
import { button, cleanup, click, find, findText, findToast, mountApp } from './harness.tsx';
import { installFakeClient } from './fake-telegram-client.ts';

afterEach(cleanup);

const newUser = () => ({ status: demoStatus({ isClaimedWelcome: false }) });

describe('onboarding', () => {
  it('starts at step 1 without the navigation, and keeps the step in currentSection', async () => {
    await mountApp('/', newUser());
    await button("Let's get rewarded");
    expect(document.querySelector('nav[aria-label="Main"]')).toBeNull();
    await click(await button("Let's get rewarded"));
    await findText('Checking your account');
    expect(localStorage.getItem(currentSectionKey)).toBe('2');
  });

  it('fills the three bars 1% per 30 ms and enables Continue at 100', async () => {
    localStorage.setItem(currentSectionKey, '2');
    await mountApp('/', newUser());
    const bars = await vi.waitFor(() => {
      const b = document.querySelectorAll('[role="progressbar"]');
      if (b.length !== 3) throw new Error('bars');
      return b;
    });
    expect([...bars].map((b) => b.getAttribute('aria-label'))).toEqual(['Account age', 'Degen level', 'Premium']);
    expect((await button('Continue')).disabled).toBe(true);
    await vi.waitFor(() => expect(bars[0]!.getAttribute('aria-valuenow')).toBe('100'), { timeout: 6_000 });
    expect((await button('Continue')).disabled).toBe(false);
  });

  it('congratulates with the title tier and the days on Telegram (step 3)', async () => {
    localStorage.setItem(currentSectionKey, '3');
    await mountApp('/', newUser());
    await findText('Congratulations');
    await findText('Profit Pro');
    await findText('2190days on telegram');
  });

  it('runs no step-3 timer when twAge is 0, and offers Connect X before the claim', async () => {
    localStorage.setItem(currentSectionKey, '3');
    const opened: string[] = [];
    vi.spyOn(window, 'open').mockImplementation((url) => {
      opened.push(String(url));
      return null;
    });
    const { state } = await mountApp('/', { status: demoStatus({ isClaimedWelcome: false, twAge: 0, twUsername: null }) });
    await findText('Congratulations');
    expect(document.querySelector('[role="progressbar"]')).toBeNull();
    expect((await button('Continue')).disabled).toBe(false);
    await click(await button('Connect X'));
    await vi.waitFor(() => expect(opened[0]).toMatch(/^https:\/\/x\.com\/i\/oauth2\/authorize/));
    // Back from X: the status now has twAge, so the title and step 3's X timer follow.
    await click(await button('I connected'));
    await find('[role="progressbar"][aria-label="X account"]');
    expect(state.calls.some((c) => c.path === '/check-x-connect')).toBe(true);
    vi.restoreAllMocks();
  });

  it('claims the welcome reward, then continue goes home with the navigation', async () => {
    localStorage.setItem(currentSectionKey, '4');
    const { router } = await mountApp('/', newUser());
    await click(await button('claim reward'));
    await findToast('Claimed successful');
    expect(document.querySelector('nav[aria-label="Main"]')).toBeNull();
    await click(await button('continue'));
    await find('nav[aria-label="Main"]');
    expect(router.state.location.pathname).toBe('/');
    expect(localStorage.getItem(currentSectionKey)).toBeNull();
  });

  it('shares the referral link from step 4', async () => {
    localStorage.setItem(currentSectionKey, '4');
    const opened: string[] = [];
    const open = vi.spyOn(window, 'open').mockImplementation((url) => {
      opened.push(String(url));
      return null;
    });
    try {
      await mountApp('/', newUser());
      const share = await button('Share');
      await vi.waitFor(() => expect(share.disabled).toBe(false));
      await click(share);
      expect(new URL(opened[0]!).searchParams.get('url')).toBe('https://t.me/money_clicker_bot/app?startapp=Ab3dE9');
    } finally {
      open.mockRestore();
    }
  });

  it('claims the Easter egg once, then says "You have claimed reward!"', async () => {
    localStorage.setItem(currentSectionKey, '4');
    await mountApp('/', newUser());
    await click(await button('Easter Egg'));
    await findText('777.00');
    await click(await button('claim'));
    await findToast('Claimed successful');
    await click(await button('claimed'));
    await findToast('You have claimed reward!');
  });

  it('says "Error occurred, please try later" at step 1 without user data, and reloads it', async () => {
    const { state } = await mountApp('/', { failures: { '': 500 } });
    const start = await button("Let's get rewarded", 8_000);
    const before = state.calls.filter((c) => c.path === '').length;
    await click(start);
    await findToast('Error occurred, please try later');
    await vi.waitFor(() => expect(state.calls.filter((c) => c.path === '').length).toBeGreaterThan(before));
  });
});

describe('shell', () => {
  it('registers a referral from a 6-character start parameter that is not the own refcode', async () => {
    history.replaceState(null, '', '?tgWebAppStartParam=XyZ123');
    try {
      const { state } = await mountApp('/');
      await vi.waitFor(() => expect(state.calls.find((c) => c.path === '/referral')?.query.refcode).toBe('XyZ123'));
    } finally {
      history.replaceState(null, '', location.pathname);
    }
  });

  it('keeps the referral code and tries again until the server answers (a 503, then the network failing)', async () => {
    history.replaceState(null, '', '?tgWebAppStartParam=XyZ123');
    try {
      const { state } = await mountApp('/', { failures: { '/referral': 503 } });
      const tries = () => state.calls.filter((c) => c.path === '/referral');
      await vi.waitFor(() => expect(tries().length).toBe(1));
      expect(localStorage.getItem('referral_pending')).toBe('XyZ123');
      state.failures['/referral'] = 'network';
      await vi.waitFor(() => expect(tries().length).toBe(2), { timeout: 10_000 });
      delete state.failures['/referral'];
      await vi.waitFor(() => expect(tries().length).toBe(3), { timeout: 10_000 });
      expect(tries().map((c) => c.query.refcode)).toEqual(['XyZ123', 'XyZ123', 'XyZ123']);
      // Answered: not pending any more, and not sent again.
      await vi.waitFor(() => expect(localStorage.getItem('referral_pending')).toBeNull());
      expect(localStorage.getItem('referral_answered')).toBe('XyZ123');
    } finally {
      history.replaceState(null, '', location.pathname);
    }
  });

  it('takes a refusal as the referral answer: a 409 is not tried again', async () => {
    history.replaceState(null, '', '?tgWebAppStartParam=XyZ123');
    try {
      const { state } = await mountApp('/', { failures: { '/referral': 409 } });
      await vi.waitFor(() => expect(localStorage.getItem('referral_answered')).toBe('XyZ123'));
      expect(localStorage.getItem('referral_pending')).toBeNull();
      expect(state.calls.filter((c) => c.path === '/referral')).toHaveLength(1);
    } finally {
      history.replaceState(null, '', location.pathname);
    }
  });

  it('makes no referral for the own refcode or a wrong length', async () => {
    for (const param of ['Ab3dE9', 'XyZ12']) {
      history.replaceState(null, '', `?tgWebAppStartParam=${param}`);
      const { state } = await mountApp('/');
      await findText('satoshi_fan');
      // The status has loaded (its name is shown): act() runs the effects it started, the referral's among them.
      await act(async () => {});
      expect(state.calls.some((c) => c.path === '/referral')).toBe(false);
    }
    history.replaceState(null, '', location.pathname);
  });

  it('sends the raw init data as Authorization on every call', async () => {
    const { state, engine } = await mountApp('/');
    await findText('satoshi_fan');
    engine.tap(1); // the engine's calls too: a tap batch
    await vi.waitFor(() => expect(state.calls.some((c) => c.path === '/click')).toBe(true));
    expect(state.calls.length).toBeGreaterThan(2);
    expect(new Set(state.calls.map((c) => c.auth))).toEqual(new Set(['query_id=test&user=%7B%22id%22%3A5001%7D&auth_date=1&hash=abc']));
  });

  it('shows one toast at a time', async () => {
    await mountApp('/earn', { tasks: withTask(demoTasks(), 6, { needsCaptcha: true }) });
    await click(await button('Watch'));
    await findToast('Watch video failed');
    const captcha = () => document.querySelector<HTMLButtonElement>('[data-testid="task-6"] .btn')!;
    await vi.waitFor(() => expect(captcha()).not.toBeNull());
    await click(captcha()); // Start
    await click(captcha()); // Claim without a captcha token
    await findToast('Please verify captcha first');
    await vi.waitFor(() => {
      const shown = [...document.querySelectorAll('[data-sonner-toast]:not([data-removed="true"])')];
      expect(shown.map((t) => t.textContent)).toEqual(['Please verify captcha first']);
    });
  });
});

describe('native back button', () => {
  it('shows on every route except /, and goes back one step', async () => {
    const client = installFakeClient({ version: '6.1', platform: 'android' });
    try {
      const { router } = await mountApp('/');
      await findText('satoshi_fan');
      expect(client.calls).toContain('BackButton.hide');
      expect(client.backButton.visible).toBe(false);
      await click(await find('a[href="/leaderboard"]'));
      await vi.waitFor(() => expect(router.state.location.pathname).toBe('/leaderboard'));
      await vi.waitFor(() => expect(client.backButton.visible).toBe(true));
      await click(await find('a[href="/earn"]'));
      await vi.waitFor(() => expect(router.state.location.pathname).toBe('/earn'));
      await act(async () => client.backButton.press());
      await vi.waitFor(() => expect(router.state.location.pathname).toBe('/leaderboard'));
      await act(async () => client.backButton.press());
      await vi.waitFor(() => expect(router.state.location.pathname).toBe('/'));
      await vi.waitFor(() => expect(client.backButton.visible).toBe(false));
      expect(client.unsupported).toEqual([]);
    } finally {
      client.restore();
    }
  });
});
