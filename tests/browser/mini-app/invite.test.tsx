import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoStatus } from './fake-api.ts';
import { button, cleanup, click, find, findText, findToast, mountApp, recordOpenedLinks } from './harness.tsx';

const opened = recordOpenedLinks();
afterEach(cleanup);

describe('invite', () => {
  it('shows the hero, the +3 and +49 cards, the note, Total Bonus, Pending Referrals and the 5% note', async () => {
    await mountApp('/invite');
    await findText('Invite friends!');
    await findText('+3 for you and your friend');
    await findText('+49 for you and your friend');
    await findText('Note: new users must click at least $100');
    await findText('Total Bonus');
    // Total Bonus = invite bonuses (totalRef 21) + 5% shares (totalMoneyRef 312.40).
    expect((await find('.invite__totals')).textContent).toContain('333.40');
    // Friends 4, 8 and 12 (of 14) have totalEarn 42.10 < $100: pending, counted by the server.
    await vi.waitFor(async () => expect((await find('.invite__totals')).textContent).toContain('Pending Referrals3'));
    await findText('+5% of every claim your friends make');
  });

  it('takes Total Bonus from the friends list\'s answer, so a newer status never sets it apart from the rows', async () => {
    const { state, engine } = await mountApp('/invite');
    await find('[data-testid="friends"]');
    await vi.waitFor(async () => expect((await find('[data-testid="total-bonus"]')).textContent).toContain('333.40'));
    // A friend's claim pays a 5% share; the status (asked again by the 90 s claim, a tap…) has it
    // before the cached list does.
    state.status.totalMoneyRef = '312.90';
    await act(() => engine.refresh());
    expect((await find('[data-testid="total-bonus"]')).textContent).toContain('333.40');
  });

  it('lists friends 10 a page', async () => {
    await mountApp('/invite');
    const list = await find('[data-testid="friends"]');
    expect(list.children).toHaveLength(10);
    // Each row's "+X" is what the player earned from that friend, not the friend's own referral income.
    expect(list.children[2]!.querySelector('.invite__friend-bonus')!.textContent).toContain('+3.50');
    expect(list.children[3]!.querySelector('.invite__friend-bonus')!.textContent).toContain('+0');
    await findText('1 / 2');
    await click(await button('Next ›'));
    await vi.waitFor(() => expect(document.querySelector('[data-testid="friends"]')!.children).toHaveLength(4));
  });

  it('shares the referral link through t.me/share/url with the fixed text', async () => {
    await mountApp('/invite');
    const invite = await button('Invite a friend');
    await vi.waitFor(() => expect(invite.disabled).toBe(false));
    await click(invite);
    expect(opened).toHaveLength(1);
    const url = new URL(opened[0]!);
    expect(url.origin + url.pathname).toBe('https://t.me/share/url');
    expect(url.searchParams.get('url')).toBe('https://t.me/money_clicker_bot/app?startapp=Ab3dE9');
    expect(url.searchParams.get('text')).toBe('Tap the coin with me on MONEY and we both get a bonus!');
  });

  it('copies the link and says so in a toast; a refused clipboard says that instead', async () => {
    const written: string[] = [];
    const clipboard = vi.spyOn(navigator.clipboard, 'writeText').mockImplementation(async (text) => void written.push(text));
    await mountApp('/invite');
    const copy = await button('Copy invite link');
    await vi.waitFor(() => expect(copy.disabled).toBe(false));
    await click(copy);
    await findToast('Invite link copied');
    expect(written).toEqual(['https://t.me/money_clicker_bot/app?startapp=Ab3dE9']);
    clipboard.mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    await click(copy);
    await findToast('Could not copy the link');
  });

  it('upgrades the referral limit over the 14 levels: "Upgraded successful"', async () => {
    const { state } = await mountApp('/invite');
    await click(await button('Lv 2 ↑'));
    const dialog = await find('[role="dialog"]');
    expect(dialog.querySelectorAll('[role="row"]')).toHaveLength(14);
    expect(dialog.querySelector('.is-current')!.textContent).toContain('20 friends');
    await click(await button('Upgrade to Lv 3'));
    await findToast('Upgraded successful');
    expect(state.calls.find((c) => c.path === '/update-ref-level')?.query.level).toBe('3');
  });

  it('says "Upgrade failed" when the referral upgrade fails', async () => {
    await mountApp('/invite', { failures: { '/update-ref-level': 400 } });
    await click(await button('Lv 2 ↑'));
    await click(await button('Upgrade to Lv 3'));
    await findToast('Upgrade failed');
  });

  it('disables the referral upgrade when MONEY is below the price, and at level 14', async () => {
    await mountApp('/invite', { status: demoStatus({ totalMoney: '150' }) });
    await click(await button('Lv 2 ↑'));
    expect((await button('Upgrade to Lv 3')).disabled).toBe(true);
    await cleanup();
    await mountApp('/invite', { status: demoStatus({ refLevel: 14 }) });
    await click(await button('Lv 14 ↑'));
    expect((await button('Max level')).disabled).toBe(true);
  });
});
