import { afterEach, describe, expect, it, vi } from 'vitest';
import { config } from '../../../src/config.ts';
import { earnTaskKey } from '../../../src/mini-app/earn/task-rules.ts';
import { turnstileWidgetScript } from '../../../server/dev/stand-ins/turnstile-widget.ts';
import { demoTasks, turnstileSolvePath, withTask, type FakeApiState } from './fake-api.ts';
import { button, cleanup, click, find, findText, findToast, mountApp, recordOpenedLinks, typeInto } from './harness.tsx';

const opened = recordOpenedLinks();
afterEach(async () => {
  delete window.Adsgram;
  delete (window as { turnstile?: unknown }).turnstile;
  config.turnstileSiteKey = '';
  await cleanup();
});

/**
 * The Turnstile widget script's stand-in (the one the demo serves): its solve call goes to the
 * fake API, which binds the token to the site key and action the widget was drawn with.
 */
const withTurnstile = async (state: FakeApiState) => {
  config.turnstileSiteKey = state.turnstileSiteKey;
  const { fakeFetch } = await import('./fake-api.ts');
  const real = window.fetch.bind(window);
  vi.spyOn(window, 'fetch').mockImplementation((input, init) =>
    String(input).endsWith(turnstileSolvePath) ? fakeFetch(state)(String(input), init) : real(input, init));
  const script = document.createElement('script');
  script.textContent = turnstileWidgetScript(turnstileSolvePath);
  document.head.append(script);
  script.remove();
};

/** Ticks the demo widget of a task's row; resolves with the widget once its token is issued. */
const solveCaptcha = async (taskId: number) => {
  const widget = await find<HTMLElement>(`[data-testid="task-${taskId}"] [data-testid="demo-turnstile"]`);
  await click(widget.querySelector('input')!);
  await vi.waitFor(() => expect(widget.dataset.state).toBe('solved'));
  return widget;
};

const task = (id: number) => find(`[data-testid="task-${id}"]`);
const taskButton = async (id: number) => (await task(id)).querySelector<HTMLButtonElement>('.btn:not(.btn--ghost)')!;

describe('earn: tasks', () => {
  it('shows skeletons while the tasks load', async () => {
    await mountApp('/earn', { hang: ['/tasks'] });
    await find('[data-testid="skeleton"]');
  });

  it('puts the "Daily Oppotunity" ads row first with n / 10, and after the others at 10', async () => {
    const { state } = await mountApp('/earn');
    const first = await find('.list > .task');
    expect(first.textContent).toContain('Daily Oppotunity');
    expect((await find('[data-testid="ads-count"]')).textContent).toBe(' · 3 / 10');
    await cleanup();
    state.tasks.find((t) => t.type === 'ADS')!.numberOfDone = 10;
    await mountApp('/earn', { tasks: state.tasks });
    await findText('10 / 10');
    const rows = [...document.querySelectorAll('.list > .task')];
    expect(rows.at(-1)!.textContent).toContain('Daily Oppotunity');
  });

  it('opens an external link first (remembered under earn_task), then claims', async () => {
    const { state } = await mountApp('/earn');
    const start = await taskButton(1);
    expect(start.textContent).toBe('Start');
    await click(start);
    expect(opened).toEqual(['https://x.com/money_clicker']);
    expect(JSON.parse(localStorage.getItem(earnTaskKey)!)).toEqual([1]);
    expect(state.calls.some((c) => c.path === '/claim-task')).toBe(false);
    const claim = await taskButton(1);
    expect(claim.textContent).toBe('Claim');
    await click(claim);
    await findToast('Claimed task successful');
    expect(state.calls.find((c) => c.path === '/claim-task')?.query.task_id).toBe('1');
    await vi.waitFor(async () => expect((await task(1)).querySelector('[aria-label="Done"]')).not.toBeNull());
  });

  it('says "Claim task failed, please try again later!" when a claim fails', async () => {
    await mountApp('/earn', { failures: { '/claim-task': 400 } });
    await click(await taskButton(1)); // Start
    await click(await taskButton(1)); // Claim
    await findToast('Claim task failed, please try again later!');
  });

  it('says "$MONEY NOT FOUND IN USER NAME" when the username check fails', async () => {
    await mountApp('/earn', { failures: { '/claim-task': 400 } });
    await click(await taskButton(4));
    await findToast('$MONEY NOT FOUND IN USER NAME');
  });

  it('asks for the captcha first on a task that needs one', async () => {
    await mountApp('/earn', { tasks: withTask(demoTasks(), 6, { needsCaptcha: true }) });
    await click(await taskButton(6)); // Start
    await click(await taskButton(6)); // Claim without a token
    await findToast('Please verify captcha first');
  });

  it('draws the captcha with the site key and the claim-task action, so the server accepts its token', async () => {
    const { state } = await mountApp('/earn', { tasks: withTask(demoTasks(), 6, { needsCaptcha: true }) });
    await withTurnstile(state);
    await click(await taskButton(6)); // Start
    const widget = await solveCaptcha(6);
    expect(widget.dataset).toMatchObject({ sitekey: state.turnstileSiteKey, action: 'claim-task' });
    // Solved before pressing Claim: nothing is claimed until the player presses it.
    expect(state.calls.some((c) => c.path === '/claim-task')).toBe(false);
    await click(await taskButton(6));
    await findToast('Claimed task successful');
    expect(state.calls.find((c) => c.path === '/claim-task')?.body).toMatchObject({ taskId: 6, captchaToken: expect.any(String) });
  });

  it('claims by itself once the captcha asked for by a press is solved', async () => {
    const { state } = await mountApp('/earn', { tasks: withTask(demoTasks(), 6, { needsCaptcha: true }) });
    await withTurnstile(state);
    await click(await taskButton(6)); // Start
    await click(await taskButton(6)); // Claim without a token
    await findToast('Please verify captcha first');
    expect(state.calls.some((c) => c.path === '/claim-task')).toBe(false);
    await solveCaptcha(6);
    await vi.waitFor(() => expect(state.calls.filter((c) => c.path === '/claim-task')).toHaveLength(1));
    expect(state.calls.find((c) => c.path === '/claim-task')?.body).toMatchObject({ taskId: 6, captchaToken: expect.any(String) });
    await findToast('Claimed task successful');
    // Done: the row drops its widget before the test ends (the stand-in widget goes with the test).
    await find('[data-testid="task-6"] .task__done');
  });
});

describe('earn: boost task', () => {
  it('claims when the channel boosts exceed numberOfDone', async () => {
    localStorage.setItem(earnTaskKey, '[7]'); // channel already opened: the check waits 0.5 s
    const { state } = await mountApp('/earn', { checkTaskBoostCount: 5 });
    await click(await taskButton(7));
    await vi.waitFor(() => expect(state.calls.some((c) => c.path === '/claim-task')).toBe(true), { timeout: 4_000 });
    await findToast('Claimed task successful');
    expect(state.calls.find((c) => c.path === '/check-task')?.body).toEqual({ taskId: 7 });
  });

  it('refuses with "You have not enouch boost" otherwise', async () => {
    localStorage.setItem(earnTaskKey, '[7]');
    const { state } = await mountApp('/earn', { checkTaskBoostCount: 4 });
    await click(await taskButton(7));
    await findToast('You have not enouch boost');
    expect(state.calls.some((c) => c.path === '/claim-task')).toBe(false);
  });
});

describe('earn: sub-tabs', () => {
  it('claims a REF task with enough invites and sends to /invite otherwise', async () => {
    const { router } = await mountApp('/earn');
    await click(await button('Invite'));
    expect((await taskButton(12)).textContent).toBe('Claim');
    const more = await taskButton(13);
    expect(more.textContent).toBe('Invite');
    await click(more);
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/invite'));
  });

  it('lists TASK1 tasks under Social (DAILY_TASK) and invite tasks under Invite (INVITE_TASK)', async () => {
    const task1 = { ...demoTasks().find((t) => t.id === 1)!, id: 91, type: 'TASK1' as const, title: 'Say gm in the community' };
    const { state } = await mountApp('/earn', { tasks: [...demoTasks(), task1] });
    await findText('Say gm in the community');
    await click(await button('Invite'));
    await task(14);
    expect(state.calls.filter((c) => c.path === '/tasks').map((c) => c.query.type)).toEqual(expect.arrayContaining(['DAILY_TASK', 'INVITE_TASK']));
  });

  it('shows "Coming soon" under Airdrop', async () => {
    await mountApp('/earn');
    await click(await button('Airdrop'));
    await findText('Coming soon');
  });
});

describe('earn: exchange check', () => {
  it('guards each step with its §5 message', async () => {
    await mountApp('/earn');
    await click(await button('Partner'));
    await click(await taskButton(22));
    await findToast('Please check account first');
    await click(await button('Check'));
    await findToast('Please fill input');
  });

  it('says "Your account is not registered via link" when the check fails', async () => {
    await mountApp('/earn', { failures: { '/check-task': 400 } });
    await click(await button('Partner'));
    await typeInto(await find<HTMLInputElement>('input[aria-label="Register on BingX ID"]'), '12345');
    await click((await task(22)).querySelector<HTMLButtonElement>('.btn--ghost:last-of-type')!);
    await findToast('Your account is not registered via link', 8_000);
  });

  it('goes WAIT → DONE after 5 s, then shows the captcha the task needs and claims with the ID and its token', async () => {
    const { state } = await mountApp('/earn');
    await withTurnstile(state);
    await click(await button('Partner'));
    await typeInto(await find<HTMLInputElement>('input[aria-label="Register on BingX ID"]'), '12345');
    await click((await task(22)).querySelector<HTMLButtonElement>('.btn--ghost:last-of-type')!);
    await button('WAIT');
    const started = performance.now();
    await button('DONE', 8_000);
    expect(performance.now() - started).toBeGreaterThan(4_000);
    await click(await taskButton(22));
    await findToast('Please verify captcha first');
    // Ticking the captcha finishes the claim that was asked for: no second press.
    expect(state.calls.some((c) => c.path === '/claim-task')).toBe(false);
    await solveCaptcha(22);
    await vi.waitFor(() => expect(state.calls.filter((c) => c.path === '/claim-task')).toHaveLength(1));
    await findToast('Claimed task successful');
    expect(state.calls.findLast((c) => c.path === '/claim-task')?.body).toEqual({ taskId: 22, inputValue: '12345', captchaToken: expect.any(String) });
  }, 15_000);
});

describe('earn: achievements', () => {
  it('lists unlocked and claimed first, then "Locked Achievements"; claims an unlocked one', async () => {
    await mountApp('/earn');
    await click(await button('Achievements'));
    await findText('Locked Achievements');
    const unlocked = await find('[data-testid="achievement-32"]');
    expect(unlocked.className).toContain('is-unlocked');
    expect((await find('[data-testid="achievement-31"]')).className).toContain('is-claimed');
    expect((await find('[data-testid="achievement-33"]')).className).toContain('is-locked');
    await click(unlocked.querySelector<HTMLButtonElement>('button')!);
    await findToast('Claimed reward successful');
  });

  it('says "Something went wrong, please try again later!" when an achievement claim fails', async () => {
    await mountApp('/earn', { failures: { '/claim-task': 500 } });
    await click(await button('Achievements'));
    await click((await find('[data-testid="achievement-32"]')).querySelector<HTMLButtonElement>('button')!);
    await findToast('Something went wrong, please try again later!');
  });

  it('shows "No Data" when there are none', async () => {
    await mountApp('/earn', { tasks: demoTasks().filter((t) => t.type !== 'ACHIVEMENT') });
    await click(await button('Achievements'));
    await findText('No Data');
  });
});

describe('earn: ads', () => {
  const withSdk = (show: () => Promise<unknown>) => {
    config.adsgramBlockId = 'test-block';
    window.Adsgram = { init: () => ({ show: show as never }) };
  };
  afterEach(() => {
    config.adsgramBlockId = '';
  });

  it('says "Watch video failed" without the SDK', async () => {
    await mountApp('/earn');
    await click(await button('Watch'));
    await findToast('Watch video failed');
  });

  it('opens "grab your reward" after a full view, and claims with base64 of the token', async () => {
    withSdk(async () => ({ done: true, error: false }));
    const { state } = await mountApp('/earn');
    await click(await button('Watch'));
    await find('[role="dialog"]', 'grab your reward');
    await button('Next video');
    await button('Close');
    expect(state.calls.find((c) => c.path === '/claim-ads-reward')?.body).toEqual({ taskId: 5, encryptData: btoa('ads-token-1') });
  });

  it('opens "Hold On!" after a skip, and KEEP WATCHING shows the ad again', async () => {
    const show = vi.fn(async () => Promise.reject({ done: false, error: false }));
    withSdk(show);
    await mountApp('/earn');
    await click(await button('Watch'));
    await find('[role="dialog"]', 'Hold On!');
    await click(await button('KEEP WATCHING'));
    await vi.waitFor(() => expect(show).toHaveBeenCalledTimes(2));
  });

  it('initialises the SDK with a block id chosen from the configured list (§7)', async () => {
    const blocks: string[] = [];
    config.adsgramBlockId = 'block-a, block-b';
    window.Adsgram = { init: ({ blockId }) => (blocks.push(blockId), { show: async () => ({ done: true, error: false }) }) };
    await mountApp('/earn');
    await click(await button('Watch'));
    await find('[role="dialog"]', 'grab your reward');
    expect(['block-a', 'block-b']).toContain(blocks[0]);
  });

  it('says "Watch video failed" when the ad errors', async () => {
    withSdk(async () => Promise.reject({ done: false, error: true }));
    await mountApp('/earn');
    await click(await button('Watch'));
    await findToast('Watch video failed');
  });
});
