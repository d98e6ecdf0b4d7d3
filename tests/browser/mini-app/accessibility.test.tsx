import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatMoney } from '../../../engine/rules/format.ts';
import { $balance, $totalClick } from '../../../src/engine-client/signals.ts';
import { balanceAnnounceMs } from '../../../src/mini-app/home/balance-announcer.ts';
import { button, cleanup, find, mountApp } from './harness.tsx';

afterEach(async () => {
  vi.useRealTimers();
  await cleanup();
});

const key = (target: Element, k: string, repeat = false) =>
  act(async () => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key: k, repeat, bubbles: true, cancelable: true }));
  });

describe('the coin from a keyboard', () => {
  it('taps once per Enter or Space press, and not while the key is held', async () => {
    await mountApp('/');
    const coin = await button('Tap the coin');
    coin.focus();
    expect(document.activeElement).toBe(coin);
    const before = $totalClick.value;
    await key(coin, 'Enter');
    await key(coin, ' ');
    await key(coin, ' ', true);
    await key(coin, 'Enter', true);
    await key(coin, 'a');
    await vi.waitFor(() => expect($totalClick.value - before).toBe(2));
    expect([...document.querySelectorAll('.coin__float')].filter((n) => n.textContent)).toHaveLength(2);
  });
});

describe('the balance for screen readers', () => {
  const shown = () => `Total money: ${formatMoney($balance.peek())}`;

  it('is announced politely after taps, once per burst and at most every 2 s, never on load nor for passive income', async () => {
    await mountApp('/');
    const coin = await button('Tap the coin');
    const region = await find('[data-testid="balance-announcer"]');
    expect(region.getAttribute('aria-live')).toBe('polite');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const writes: string[] = [];
    const seen = new MutationObserver(() => writes.push(region.textContent ?? ''));
    seen.observe(region, { childList: true, characterData: true, subtree: true });
    // Passive income (40/s here) moves the balance, and says nothing.
    await act(async () => vi.advanceTimersByTime(3_000));
    expect(writes).toEqual([]);
    // Each tap's "+N" shows once the engine took it (no vi.waitFor here: it would advance the timers).
    const taken = () => [...document.querySelectorAll('.coin__float')].filter((n) => n.textContent).length;
    for (let i = 0; i < 3; i++) await key(coin, 'Enter');
    expect(taken()).toBe(3);
    expect(writes).toEqual([]);
    await act(async () => vi.advanceTimersByTime(0));
    expect(writes).toEqual([shown()]);
    // Another tap at once waits for the rest of the 2 s.
    await key(coin, 'Enter');
    expect(taken()).toBe(4);
    await act(async () => vi.advanceTimersByTime(balanceAnnounceMs - 1));
    expect(writes).toHaveLength(1);
    await act(async () => vi.advanceTimersByTime(1));
    expect(writes).toHaveLength(2);
    expect(writes[1]).toBe(shown());
    seen.disconnect();
  });
});

describe('names that match what is shown', () => {
  it('names a boost card by everything it shows: title, level, price and effect', async () => {
    await mountApp('/boost');
    const finger = await find('button.boost__row', 'Finger');
    expect(finger.getAttribute('aria-label')).toBeNull();
    expect(finger.textContent).toMatch(/^Finger Lv 2.*225\.00/);
  });

  it('gives the onboarding step dots a role for their label', async () => {
    const { demoStatus } = await import('./fake-api.ts');
    await mountApp('/', { status: demoStatus({ isClaimedWelcome: false }) });
    const dots = await find('.onb__dots');
    expect(dots.getAttribute('role')).toBe('img');
    expect(dots.getAttribute('aria-label')).toBe('Step 1 of 4');
  });
});
