/**
 * The daily loop in the mini-app (docs/rules.md §15): Home's tiles, the calendar sheet, the combo
 * on Boost, cipher mode on the coin and the profile card's reminders switch, over the fake API.
 */
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { economy } from '../../../engine/rules/economy.ts';
import { ManualTime } from '../../../engine/client/testing/manual-time.ts';
import { $energy, $totalClick } from '../../../src/engine-client/signals.ts';
import { MorseTime } from '../../../src/mini-app/daily/cipher-mode.tsx';
import { demoDaily, demoStatus } from './fake-api.ts';
import { button, cleanup, click, find, findText, findToast, mountApp, pointer } from './harness.tsx';

afterEach(cleanup);

const key = (k: string) => act(async () => void window.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true })));
/** Types a word in Morse on the keyboard: . and -, a space after each letter. */
const typeMorse = async (code: string) => {
  for (const letter of code.split(' ')) {
    for (const symbol of letter) await key(symbol);
    await key(' ');
  }
};

describe('daily tiles on Home', () => {
  it('shows the reward, the combo and the cipher, each with a dot while it waits and the time left today', async () => {
    await mountApp('/', { status: demoStatus({ daily: demoDaily({ combo: { found: [5, 7, 9], complete: true, reward: '200' } }) }) });
    const streak = await find('[data-testid="daily-streak"]');
    expect(streak.textContent).toContain('Daily reward');
    expect(streak.querySelector('.daily__dot')).not.toBeNull();
    expect(streak.textContent).toMatch(/0[45]:\d\d:\d\d/);
    const combo = await find('[data-testid="daily-combo"]');
    expect(combo.getAttribute('href')).toBe('/boost?tab=upgrade');
    expect(combo.querySelector('.daily__dot')).toBeNull();
    expect(combo.textContent).toContain('Done');
    expect((await find('[data-testid="daily-cipher"]')).querySelector('.daily__dot')).not.toBeNull();
  });

  it('opens the calendar where the player stands, claims today once, then counts down to tomorrow', async () => {
    const { state } = await mountApp('/');
    await click(await find('[data-testid="daily-streak"]'));
    const sheet = await find('[role="dialog"]');
    expect(sheet.textContent).toContain('3 days in a row');
    const days = [...sheet.querySelectorAll('.streak__day')];
    expect(days).toHaveLength(10);
    expect(days.map((d) => d.className.replace('streak__day is-', ''))).toEqual(['claimed', 'claimed', 'claimed', 'today', ...Array(6).fill('next')]);
    expect(days.map((d) => d.querySelector('strong')!.textContent)).toEqual(economy.dailyStreakRewardsMoney.map(String));
    const moneyBefore = state.status.totalMoney;
    await click(sheet.querySelector<HTMLButtonElement>('.btn--block')!);
    await findToast(`You got +${economy.dailyStreakRewardsMoney[3]} MONEY!`);
    await findText('4 days in a row');
    expect(state.calls.filter((c) => c.path === '/daily/streak')).toHaveLength(1);
    expect(Number(state.status.totalMoney) - Number(moneyBefore)).toBe(economy.dailyStreakRewardsMoney[3]);
    const after = await find('[role="dialog"] .btn--block', 'Come back in');
    expect(after).toHaveProperty('disabled', true);
    expect(document.querySelector('[data-testid="streak-day-4"]')!.className).toContain('is-claimed');
    expect((await find('[data-testid="daily-streak"]')).querySelector('.daily__dot')).toBeNull();
  });

  it('shows a refused claim in the player’s language, by its code', async () => {
    await mountApp('/', { failures: { '/daily/streak': { status: 409, code: 'dailyStreakClaimed' } } });
    await click(await find('[data-testid="daily-streak"]'));
    await click(await find('[role="dialog"] .btn--block'));
    await findToast('Today’s reward is already claimed, come back tomorrow');
  });
});

describe('the combo on Boost', () => {
  const rich = () => demoStatus({ totalEarn: '900000000', passiveEarnLevel: { 3: 2, 4: 6, 5: 5, 6: 5, 7: 5, 8: 5 } });

  it('opens on the Upgrade tab from Home, with the found card in its slot and the others secret', async () => {
    await mountApp('/boost?tab=upgrade');
    const panel = await find('[data-testid="combo-panel"]');
    expect(panel.textContent).toContain('Daily combo');
    expect(panel.textContent).toContain('1 / 3 found');
    expect((await find('[data-testid="combo-slot-1"]')).textContent).toContain('Coin Jar');
    for (const n of [2, 3]) {
      const slot = await find(`[data-testid="combo-slot-${n}"]`);
      expect(slot.getAttribute('aria-label')).toBe('Secret card');
      expect(slot.textContent).toBe('?');
      expect(slot.querySelector('img')).toBeNull();
    }
  });

  it('fills a slot when a combo card is upgraded, and pays when the third is found', async () => {
    const { state } = await mountApp('/boost?tab=upgrade', { status: rich() });
    const upgrade = async (k: number) => {
      await click(await find(`[data-testid="item-${k}"]`));
      const dialog = await find('[role="dialog"]');
      await click(dialog.querySelector<HTMLButtonElement>('.btn--block')!);
      await findToast('Upgrade successful');
      await click(dialog.querySelector<HTMLButtonElement>('.popup__close')!);
    };
    await upgrade(4);
    expect((await find('[data-testid="combo-panel"]')).textContent).toContain('1 / 3 found');
    await upgrade(7);
    await vi.waitFor(async () => expect((await find('[data-testid="combo-slot-2"]')).textContent).toContain('Gold Safe'));
    const moneyBefore = Number(state.status.totalMoney);
    await upgrade(9);
    await findText('Combo found! Reward paid');
    expect((await find('[data-testid="combo-slot-3"]')).textContent).toContain('Stock Portfolio');
    expect(Number(state.status.totalMoney) - moneyBefore).toBe(economy.dailyComboRewardMoney);
  });
});

describe('cipher mode', () => {
  it('turns the coin into a Morse key: a tap is a dot, a hold a dash, a pause ends the letter; no tap is counted', async () => {
    const time = new ManualTime();
    const { state } = await mountApp('/', {}, (app) => <MorseTime.Provider value={time}>{app}</MorseTime.Provider>);
    const energy = $energy.value;
    const clicks = $totalClick.value;
    await click(await find('[data-testid="daily-cipher"]'));
    await find('[data-testid="cipher-mode"]');
    expect(document.querySelector('[aria-label="Tap the coin"]')).toBeNull();
    const keyButton = await button('Morse key: tap for a dot, hold for a dash');
    const press = async (ms: number) => {
      await pointer(keyButton, 'pointerdown', 1);
      await act(() => time.advance(ms));
      await pointer(keyButton, 'pointerup', 1);
    };
    await press(economy.morseDashMinMs - 150);
    await press(economy.morseDashMinMs + 50);
    expect((await find('[data-testid="cipher-word"]')).querySelectorAll('.cipher__dot, .cipher__dash')).toHaveLength(2);
    await act(() => time.advance(economy.morseLetterGapMs));
    expect((await find('[data-testid="cipher-word"]')).textContent).toBe('A');
    // Two more letters, N (-.) and Y (-.--), then Erase drops the last.
    await press(400);
    await press(60);
    await act(() => time.advance(economy.morseLetterGapMs));
    expect((await find('[data-testid="cipher-word"]')).textContent).toBe('AN');
    await click(await button('⌫ Erase'));
    expect((await find('[data-testid="cipher-word"]')).textContent).toBe('A');
    // Nothing reached the engine: no taps, no energy, no click batch.
    expect($totalClick.value).toBe(clicks);
    expect($energy.value).toBe(energy);
    expect(state.calls.some((c) => c.path === '/click')).toBe(false);
  });

  it('says a wrong word is wrong with the guesses left, and pays for the right one', async () => {
    const { state } = await mountApp('/');
    await click(await find('[data-testid="daily-cipher"]'));
    await find('[data-testid="cipher-mode"]');
    await findText(`${economy.dailyCipherGuessesPerDay} guesses left today`);
    await typeMorse('-.-. .- ... ....'); // CASH
    expect((await find('[data-testid="cipher-word"]')).textContent).toBe('CASH');
    await click(await button('Send'));
    await findToast(`Not today’s word. ${economy.dailyCipherGuessesPerDay - 1} guesses left`);
    expect(state.calls.find((c) => c.path === '/daily/cipher')?.body).toEqual({ word: 'CASH' });
    await typeMorse('-- --- -. . -.--'); // MONEY
    await key('Enter');
    await findToast(`You got +${economy.dailyCipherRewardMoney} MONEY!`);
    await find('[data-testid="cipher-solved"]');
    expect(state.status.daily!.cipher.solved).toBe(true);
    expect((await find('[data-testid="daily-cipher"]')).textContent).toContain('Done');
  });

  it('shows the limit refusal by its code and leaves the tapping coin back on exit', async () => {
    await mountApp('/', { failures: { '/daily/cipher': { status: 429, code: 'dailyCipherLimit', field: 'word' } } });
    await click(await find('[data-testid="daily-cipher"]'));
    await typeMorse('.');
    await click(await button('Send'));
    await findToast('No guesses left today, come back tomorrow');
    await click(await button('Back to tapping'));
    await button('Tap the coin');
    expect(document.querySelector('[data-testid="cipher-mode"]')).toBeNull();
  });
});

describe('the reminders switch', () => {
  it('shows the server’s setting on the profile card and turns it off there', async () => {
    const { state } = await mountApp('/');
    await click(await button('Open profile'));
    const toggle = await find('[data-testid="reminders-switch"]');
    expect(toggle.getAttribute('role')).toBe('switch');
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    await click(toggle);
    await vi.waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('false'));
    expect(state.calls.filter((c) => c.path === '/daily/reminders').map((c) => c.body)).toEqual([{ on: false }]);
    expect(state.status.daily!.reminders).toBe(false);
  });
});
