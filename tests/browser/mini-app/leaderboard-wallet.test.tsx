import { afterEach, describe, expect, it, vi } from 'vitest';
import { walletMockFlag } from '../../../src/mini-app/wallet/wallet-screen.tsx';
import { demoStatus } from './fake-api.ts';
import { button, cleanup, click, find, findText, findToast, mountApp, typeInto } from './harness.tsx';

afterEach(cleanup);

describe('leaderboard', () => {
  it('lists 10 a page with the player first, and pages on', async () => {
    await mountApp('/leaderboard');
    const list = await find('.board__list');
    expect(list.children).toHaveLength(10);
    expect(list.children[0]!.textContent).toContain('satoshi_fan (you)');
    expect(list.children[0]!.textContent).toContain('#12');
    await findText('1 / 3');
    await click(await button('Next ›'));
    await findText('2 / 3');
  });

  it('keeps a 32-character name on one line, ending in an ellipsis, with "(you)" whole beside it', async () => {
    const long = 'Maximilian_Alexander_vonHabsburg';
    expect(long).toHaveLength(32);
    const status = demoStatus({ teleUsername: long });
    await mountApp('/leaderboard', { status });
    const title = await find('.board__list > li .row__title', long);
    const name = title.querySelector<HTMLElement>('.board__name-text')!;
    const lineHeight = parseFloat(getComputedStyle(name).lineHeight) || 21;
    expect(name.getBoundingClientRect().height).toBeLessThan(lineHeight * 1.5);
    expect(getComputedStyle(name).textOverflow).toBe('ellipsis');
    expect(name.scrollWidth).toBeGreaterThan(name.clientWidth);
    expect(name.title).toBe(long);
    const you = title.querySelector<HTMLElement>('.board__you')!;
    expect(you.scrollWidth).toBeLessThanOrEqual(you.clientWidth + 1);
  });

  it('shows skeletons while loading and the §8 fallback on failure', async () => {
    await mountApp('/leaderboard', { hang: ['/leaderboard'] });
    await find('[data-testid="skeleton"]');
    await cleanup();
    await mountApp('/leaderboard', { failures: { '/leaderboard': 500 } });
    await findText('Something went wrong, please try again later!', 6_000);
  });
});

describe('wallet teaser', () => {
  it('hides the button while the forecast is unknown', async () => {
    await mountApp('/wallet', { status: demoStatus({ preWlComing: undefined }) });
    await findText('Wallet is coming in');
    expect(document.querySelector('.wallet .btn')).toBeNull();
  });

  it('submits a numeric forecast once, then shows it with "submitted"', async () => {
    const { state } = await mountApp('/wallet');
    await findText(/earn\s+7,777 MONEY/);
    await findText('You can submit only once.');
    const input = await find<HTMLInputElement>('input[aria-label="Days"]');
    await typeInto(input, '4a2');
    expect(input.value).toBe('42');
    await click(await button('submit'));
    await findText('You have submitted your forecast. Now wait for your prizes!');
    expect((await find('[data-testid="forecast"]')).textContent).toBe('42');
    expect((await button('submitted')).disabled).toBe(true);
    expect(state.calls.find((c) => c.path === '/set-predict-wallet-coming')?.query.days).toBe('42');
  });

  it('only logs a failed forecast (no message)', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await mountApp('/wallet', { failures: { '/set-predict-wallet-coming': 500 } });
    await typeInto(await find<HTMLInputElement>('input[aria-label="Days"]'), '30');
    await click(await button('submit'));
    await vi.waitFor(() => expect(error).toHaveBeenCalled());
    expect(document.querySelector('[data-sonner-toast]')).toBeNull();
    error.mockRestore();
  });

  it('says the range for an empty, 0 or too long forecast, and sends nothing', async () => {
    const error = vi.spyOn(console, 'error');
    const { state } = await mountApp('/wallet');
    const input = await find<HTMLInputElement>('input[aria-label="Days"]');
    for (const value of ['', '0', '99999']) {
      await typeInto(input, value);
      await click(await button('submit'));
      await findToast('Enter a number of days from 1 to 36,500');
    }
    expect(state.calls.filter((c) => c.path === '/set-predict-wallet-coming')).toEqual([]);
    // (TON Connect's SDK logs its own fetch failures here: only the forecast's would be ours.)
    expect(error.mock.calls.filter((c) => c[0] === 'forecast')).toEqual([]);
    error.mockRestore();
  });

  it('shows the mock view only behind the internal flag', async () => {
    localStorage.setItem(walletMockFlag, '1');
    await mountApp('/wallet');
    await findText('Send $');
    await findText('1 MONEY = 100,000,000,000$');
    await findText('Receive MONEY');
    await findText('No data');
    expect((await button('COMING SOON')).disabled).toBe(true);
  });

  it('shows the mock balance in full up to 999,999,999,999 and compact above (§9)', async () => {
    localStorage.setItem(walletMockFlag, '1');
    await mountApp('/wallet', { status: demoStatus({ totalEarn: '18250.50', passiveEarnLevel: {} }) });
    await vi.waitFor(() => expect(document.querySelector('.wallet__balance')!.textContent).toContain('18,250.50'));
    await cleanup();
    localStorage.setItem(walletMockFlag, '1');
    await mountApp('/wallet', { status: demoStatus({ totalEarn: '1234567890123', passiveEarnLevel: {} }) });
    await vi.waitFor(() => expect(document.querySelector('.wallet__balance')!.textContent).toContain('1.2T'));
  });
});

describe('coming soon', () => {
  it('shows the reward card with the name, 25235, the title and the two tiles', async () => {
    await mountApp('/comingsoon');
    const card = await find('[data-testid="reward-card"]');
    for (const text of ["satoshi_fan's Reward", '25235', 'satoshi_fan is a Profit Pro', 'days on telegram', 'days on twitter']) expect(card.textContent).toContain(text);
  });

  it('exports the card as a JPEG with "Down img"', async () => {
    await mountApp('/comingsoon');
    const clicked: string[] = [];
    const original = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      clicked.push(this.href);
    };
    try {
      await click(await button('Down img'));
      await vi.waitFor(() => expect(clicked[0]).toMatch(/^data:image\/jpeg;base64,/), { timeout: 10_000 });
    } finally {
      HTMLAnchorElement.prototype.click = original;
    }
  });
});
