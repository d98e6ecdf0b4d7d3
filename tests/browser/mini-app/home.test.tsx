import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { $energy, $totalClick } from '../../../src/engine-client/signals.ts';
import { resetMoneyDream } from '../../../src/mini-app/home/money-dream-popup.tsx';
import { demoStatus } from './fake-api.ts';
import { button, cleanup, click, find, findText, findToast, mountApp, pointer } from './harness.tsx';

afterEach(cleanup);

describe('home', () => {
  it('shows the player, the rank, the money, the energy and the auto-earn rate', async () => {
    await mountApp('/');
    await findText('satoshi_fan');
    await findText('Rank #12');
    expect((await find('[data-testid="balance"]')).textContent).toBe('18,250.50');
    expect((await find('[data-testid="your-money"]')).textContent).toContain('4,375.25');
    expect((await find('[data-testid="energy"]')).textContent).toBe('742 / 1000');
    // 6 × Piggy Bank (2/s) + 5 × Coin Jar (3/s) + 1 × Cash Register (13/s) = 40/s
    expect((await find('[data-testid="per-second"]')).textContent).toContain('+40.00/s');
    expect(document.querySelector('nav[aria-label="Main"]')?.textContent).toBe('HomeEarnBoostInviteWallet');
    expect((await find('a[href="/leaderboard"]')).textContent).toContain('Rank');
  });

  it('counts one tap per pointerdown per pointerId and floats +N', async () => {
    await mountApp('/');
    const coin = await button('Tap the coin');
    const before = $totalClick.value;
    await pointer(coin, 'pointerdown', 1);
    await pointer(coin, 'pointerdown', 2);
    await pointer(coin, 'pointerdown', 3);
    await pointer(coin, 'pointerdown', 3); // same finger still down: not a new tap
    await vi.waitFor(() => expect($totalClick.value - before).toBe(3));
    await pointer(coin, 'pointerup', 3);
    await pointer(coin, 'pointerdown', 3);
    await vi.waitFor(() => expect($totalClick.value - before).toBe(4));
    const floats = [...document.querySelectorAll('.coin__float')].filter((n) => n.textContent);
    expect(floats.map((n) => n.textContent)).toEqual(['+3', '+3', '+3', '+3']);
    expect(getComputedStyle(coin).touchAction).toBe('manipulation');
    expect($energy.value).toBe(742 - 4);
  });

  it('refuses a tap at 0 energy with the §5 message', async () => {
    await mountApp('/', { status: demoStatus({ availableEnergy: 0 }) });
    const coin = await button('Tap the coin');
    const before = $totalClick.value;
    await pointer(coin, 'pointerdown', 1);
    await findToast("You don't have enough energy to click!");
    expect($totalClick.value).toBe(before);
  });

  it('opens the profile card from the avatar, with the title tier', async () => {
    await mountApp('/');
    await click(await button('Open profile'));
    const dialog = await find('[role="dialog"]');
    // mean of 2190 and 1460 days = 1825 → Profit Pro
    expect(dialog.textContent).toContain('Profit Pro');
    expect(dialog.textContent).toContain('2190days on telegram');
  });

  it('shows "Money Dream" once when the offline reward is above 0, and claims it', async () => {
    resetMoneyDream();
    await mountApp('/', { status: demoStatus({ offlinePassiveReward: '1234.5' }) });
    await findText("While sleeping, you've earned +1,234.50");
    expect(document.querySelector('[role="dialog"] h2')?.textContent).toBe('Money Dream');
    await click(await button('Claim'));
    await findToast('Claimed successful');
    expect(document.querySelector('[role="dialog"]')).toBeNull();
  });

  it('cuts a 32-character name in the header, and shows it whole behind a tap on it', async () => {
    const long = 'Maximilian_Alexander_vonHabsburg';
    await mountApp('/', { status: demoStatus({ teleUsername: long }) });
    const header = await find<HTMLButtonElement>('.home__name', long);
    expect(header.scrollWidth).toBeGreaterThan(header.clientWidth);
    expect(header.title).toBe(long);
    await click(header);
    const whole = await find('[data-testid="profile-name"]', long);
    expect(whole.scrollWidth).toBeLessThanOrEqual(whole.clientWidth);
    expect(whole.getBoundingClientRect().right).toBeLessThanOrEqual(document.documentElement.clientWidth);
  });

  it('never opens mid-session: income earned since the load is no offline reward (Invite → Home)', async () => {
    resetMoneyDream();
    const { state, engine, router } = await mountApp('/');
    await button('Tap the coin');
    // A passive card bought during the session: the server's status now reports income since the last claim.
    state.status.offlinePassiveReward = '53.77';
    await act(() => router.navigate('/invite'));
    await act(() => engine.refresh());
    await act(() => router.navigate('/'));
    await button('Tap the coin');
    await act(() => engine.refresh());
    expect(document.body.textContent).not.toContain('Money Dream');
    expect(document.querySelector('[role="dialog"]')).toBeNull();
  });

  it('closes by itself when the 90 s claim banks the amount, never showing +0.00', async () => {
    resetMoneyDream();
    const { engine } = await mountApp('/', { status: demoStatus({ offlinePassiveReward: '1234.5' }) });
    await findText("While sleeping, you've earned +1,234.50");
    // What the engine's 90 s timer does.
    await act(async () => void (await engine.claim()));
    await vi.waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull());
    expect(document.body.textContent).not.toContain('+0.00');
  });

  it('shows the §8 message when the offline claim fails', async () => {
    resetMoneyDream();
    const { state } = await mountApp('/', { status: demoStatus({ offlinePassiveReward: '10' }) });
    await findText('Money Dream');
    state.failures['/claim'] = 400;
    await click(await button('Claim'));
    await findToast('Something went wrong, please try again later!');
  });
});

describe('profile card: X account', () => {
  it('opens X sign-in from "Connect X", then shows the account after "I connected"', async () => {
    const opened: string[] = [];
    const open = vi.spyOn(window, 'open').mockImplementation((url) => {
      opened.push(String(url));
      return null;
    });
    try {
      const { state } = await mountApp('/', { status: demoStatus({ twUsername: null, twAge: 0 }) });
      await click(await button('Open profile'));
      await click(await button('Connect X'));
      await vi.waitFor(() => expect(opened[0]).toMatch(/^https:\/\/x\.com\/i\/oauth2\/authorize/));
      expect(state.calls.find((c) => c.path === '/social-login')?.query.redirect_to).toBe(location.href);
      await click(await button('I connected'));
      await findText('@new_x_name');
    } finally {
      open.mockRestore();
    }
  });
});
