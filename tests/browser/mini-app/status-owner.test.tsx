import { afterEach, describe, expect, it, vi } from 'vitest';
import { $status } from '../../../src/engine-client/signals.ts';
import type { FakeApiState } from './fake-api.ts';
import { cleanup, click, find, findToast, mountApp } from './harness.tsx';

afterEach(async () => {
  vi.restoreAllMocks();
  await cleanup();
});

/** The requests the page made so far for `path` (GET; '' and '/' are both the status). */
const gets = (state: FakeApiState, ...paths: string[]) => state.calls.filter((c) => c.method === 'GET' && paths.includes(c.path)).length;
const statusRequests = (state: FakeApiState) => gets(state, '', '/');
const taskListRequests = (state: FakeApiState) => gets(state, '/tasks');

/** Task 1 of the seed: follow on X, an external link (Start opens it, then Claim), reward 100. */
const taskButton = (label: 'Start' | 'Claim') => find<HTMLButtonElement>('[data-testid="task-1"] button', label);

// docs/architecture.md: the engine owns the player's status on the page; one place reloads it after a claim.
describe('the status on the page has one owner', () => {
  it('asks for the status once at start, and once after a claim', async () => {
    vi.spyOn(window, 'open').mockImplementation(() => null);
    const { state } = await mountApp('/earn');

    // The earn screen has mounted and its task list answered: every request a mounted reader makes
    // at start has been made by now, and the page's status is the engine's, from its one request.
    await click(await taskButton('Start'));
    await taskButton('Claim');
    expect($status.value.status?.totalMoney).toBe('4375.25');
    expect(statusRequests(state)).toBe(1);

    const listsBefore = taskListRequests(state);
    await click(await taskButton('Claim'));
    await findToast('Claimed task successful');
    // The one reload after a claim: the task list again (the task shows done) and the status
    // through the engine, whose copy is the page's (the claim's 100 MONEY is in it).
    await find('[data-testid="task-1"] [aria-label="Done"]');
    await expect.poll(() => taskListRequests(state), { timeout: 4_000 }).toBeGreaterThan(listsBefore);
    await expect.poll(() => $status.value.status?.totalMoney, { timeout: 4_000 }).toBe('4475.25');
    expect(statusRequests(state)).toBe(2);
  });
});
