import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FakeApiState } from './fake-api.ts';
import { cleanup, click, find, findText, findToast, mountApp } from './harness.tsx';

afterEach(async () => {
  vi.restoreAllMocks();
  await cleanup();
});

/** The status requests (GET of the API root) the page made so far. */
const statusCalls = (state: FakeApiState) => state.calls.filter((c) => c.method === 'GET' && (c.path === '' || c.path === '/')).length;

/** Waits for every call in flight to answer: the fake answers at once, so a few turns of the event loop do. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

// docs/architecture.md: the engine owns the player's status on the page; one place reloads it after a claim.
describe('the status on the page has one owner', () => {
  it('asks for the status once at start, and once after a claim', async () => {
    vi.spyOn(window, 'open').mockImplementation(() => null);
    const { state } = await mountApp('/earn');
    await findText('satoshi_fan', 4_000).catch(() => undefined);
    const taskButton = async () => (await find('[data-testid="task-1"]')).querySelector<HTMLButtonElement>('.btn:not(.btn--ghost)')!;
    await click(await taskButton()); // Start
    await settle();
    console.log('status requests at start', statusCalls(state));
    expect(statusCalls(state)).toBe(1);
    await click(await taskButton()); // Claim
    await findToast('Claimed task successful');
    await settle();
    console.log('status requests after a claim', statusCalls(state));
    expect(statusCalls(state)).toBe(2);
  });
});
