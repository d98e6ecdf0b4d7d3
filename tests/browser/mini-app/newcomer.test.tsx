import { afterEach, describe, expect, it, vi } from 'vitest';
import { config } from '../../../src/config.ts';
import { demoLeave } from '../../../src/mini-app/demo.ts';
import { demoFriends, demoStatus, demoTasks, withTask } from './fake-api.ts';
import { button, cleanup, click, find, findText, mountApp } from './harness.tsx';

afterEach(async () => {
  config.demoServices = undefined;
  vi.restoreAllMocks();
  await cleanup();
});

/** What a newcomer met on their first days, each as it should be now. */
describe('what a newcomer met', () => {
  it('Invite shows totals as fresh as its friends list: opening it asks the status again', async () => {
    const { state, router } = await mountApp('/', { status: demoStatus({ inviteCnt: 0, totalRef: '0', totalMoneyRef: '0' }), friends: [] });
    await findText('satoshi_fan');
    // A friend joins and pays a bonus while the player is on Home: the status the page holds is old.
    state.friends = demoFriends(1);
    Object.assign(state.status, { inviteCnt: 1, totalRef: '3', totalMoneyRef: '0.50' });
    await router.navigate('/invite');
    await find('[data-testid="friends"]');
    await findText('Your friends (1 / ');
    await vi.waitFor(async () => expect((await find('.invite__totals')).textContent).toContain('3.50'));
  });

  it('the Easter egg sheet keeps showing what was claimed', async () => {
    localStorage.setItem('currentSection', '4');
    const { state } = await mountApp('/', { status: { ...demoStatus({ isClaimedWelcome: false, isClaimedEaster: false }), lastClaimedTime: Date.now() } });
    await click(await button('Easter Egg'));
    const sheet = await find('[role="dialog"]');
    expect(sheet.querySelector('.onb__reward')!.textContent).toContain('777.00');
    await click(await button('claim'));
    await vi.waitFor(() => expect(state.status.isClaimedEaster).toBe(true));
    await button('claimed');
    expect(state.status.pendingEasterReward).toBe('0');
    expect((await find('[role="dialog"] .onb__reward')).textContent).toContain('777.00');
  });

  it('Connect X in the demo opens X in this tab, so its callback comes back to the mini-app', async () => {
    config.demoServices = ['x'];
    const left: string[] = [];
    vi.spyOn(demoLeave, 'to').mockImplementation((url) => void left.push(url));
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    await mountApp('/', { status: demoStatus({ twUsername: null, twAge: 0 }) });
    await click(await button('Open profile'));
    await click(await find('button', 'Connect X'));
    await vi.waitFor(() => expect(left[0]).toMatch(/^https:\/\/x\.com\/i\/oauth2\/authorize/));
    expect(open).not.toHaveBeenCalled();
  });

  it('the wallet forecast box says a number goes there', async () => {
    await mountApp('/wallet', { status: demoStatus({ preWlComing: 0 }) });
    const box = await find<HTMLInputElement>('input[aria-label]');
    expect(box.value).toBe('');
    expect(box.placeholder).toBe('?');
  });

  it('wraps the player\'s own long name on the leaderboard, and a long task title, instead of cutting them', async () => {
    const longName = 'satoshi_nakamoto_the_first_and_only_real_one';
    await mountApp('/leaderboard', { status: demoStatus({ teleUsername: longName }) });
    const mine = await find('.board__row.is-me .row__title');
    expect(mine.textContent).toContain(longName);
    expect(mine.scrollWidth).toBeLessThanOrEqual(mine.clientWidth);
    expect(getComputedStyle(mine).textOverflow).not.toBe('ellipsis');
    await cleanup();

    const longTitle = 'Follow our partner channel and turn on notifications to never miss a drop';
    await mountApp('/earn', { tasks: withTask(demoTasks(), 6, { title: longTitle }) });
    const title = await find('[data-testid="task-6"] .row__title');
    expect(title.textContent).toBe(longTitle);
    expect(title.scrollWidth).toBeLessThanOrEqual(title.clientWidth);
    expect(title.getBoundingClientRect().height).toBeGreaterThan(parseFloat(getComputedStyle(title).lineHeight) * 1.5);
  });
});
