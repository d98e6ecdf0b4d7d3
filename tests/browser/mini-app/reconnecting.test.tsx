import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { $online, $pendingTaps, $totalClick } from '../../../src/engine-client/signals.ts';
import { messages, notify } from '../../../src/mini-app/messages.ts';
import { button, cleanup, find, mountApp, pointer, toasts } from './harness.tsx';

afterEach(cleanup);

const tap = async (coin: Element, pointerId: number) => {
  await pointer(coin, 'pointerdown', pointerId);
  await pointer(coin, 'pointerup', pointerId);
};

describe('reconnecting', () => {
  it('shows one calm line instead of error toasts while the server answers 503, and catches up by itself', async () => {
    const { state } = await mountApp('/');
    const coin = await button('Tap the coin');
    const before = $totalClick.value;
    state.failures['/click'] = 503;
    for (let i = 1; i <= 5; i++) await tap(coin, i);
    await vi.waitFor(() => expect($online.value).toBe(false), { timeout: 5_000 });
    expect((await find('[role="status"].reconnecting')).textContent).toBe(messages.reconnecting);
    // Taps keep counting and stay queued; a failed action adds no toast of its own.
    await tap(coin, 6);
    notify(messages.somethingWrong, 'error');
    // The sixth tap reaches the worker and its snapshot comes back; act() has rendered the notice by then.
    await vi.waitFor(() => expect($pendingTaps.value).toBe(6));
    await act(async () => {});
    expect(toasts()).toEqual([]);

    // The server is back: the engine's retry sends the taps, and the line goes away.
    delete state.failures['/click'];
    await vi.waitFor(() => expect($pendingTaps.value).toBe(0), { timeout: 10_000 });
    await vi.waitFor(() => expect(document.querySelector('.reconnecting')).toBeNull());
    expect($online.value).toBe(true);
    expect($totalClick.value - before).toBe(6);
    expect(state.status.totalClick - before).toBe(6);
  });
});
