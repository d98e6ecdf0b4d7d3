import { afterEach, describe, expect, it } from 'vitest';
import { demoStatus } from './fake-api.ts';
import { button, cleanup, click, find, findText, findToast, mountApp } from './harness.tsx';

afterEach(cleanup);

const itemCard = (key: number) => find(`[data-testid="item-${key}"]`);
/** A booster row, named by all it shows (title, level, price, effect): found by its title. */
const booster = (title: string) => find<HTMLButtonElement>('button.boost__row', title);

describe('boost', () => {
  it('lists Finger, Handheld and Energy Limit with their levels and §9 prices', async () => {
    await mountApp('/boost');
    const finger = await booster('Finger');
    // Finger level 2: 100 × 1.5² = 225; Handheld (fingerLevel 3): 15 × 2³ = 120; Energy level 2: 500 × 2² = 2,000
    expect(finger.textContent).toContain('225.00');
    expect(finger.textContent).toContain('Lv 2');
    expect((await booster('Handheld')).textContent).toContain('120.00');
    expect((await booster('Energy Limit')).textContent).toContain('2,000.00');
  });

  it('shows the 18 items in a two-column grid, with ???? on locked items', async () => {
    await mountApp('/boost');
    await click(await button('Upgrade'));
    const grid = await find('.boost__grid');
    expect(grid.children).toHaveLength(18);
    expect(getComputedStyle(grid).gridTemplateColumns.split(' ')).toHaveLength(2);
    // Owned: 4 (Lv 6), 5 (Lv 5), 6 (Lv 1) → 7 and above are locked by sequence.
    expect((await itemCard(4)).textContent).toContain('3,132.43'); // 275 × 1.5⁶ = 3132.42…, prices round up to the cent
    expect((await itemCard(6)).textContent).toContain('+13.00/s');
    const locked = await itemCard(7);
    expect(locked.className).toContain('is-locked');
    expect(locked.textContent).toContain('????');
    expect(locked.querySelector('[aria-label="locked"]')).not.toBeNull();
  });

  it('masks an affordable-by-sequence item that costs more than the balance', async () => {
    await mountApp('/boost', { status: demoStatus({ totalEarn: '100' }) });
    await click(await button('Upgrade'));
    const piggy = await itemCard(4);
    expect(piggy.textContent).toContain('????');
    expect(piggy.querySelector('[aria-label="locked"]')).toBeNull();
  });

  it('confirms before upgrading, says "Upgrade successful", then cools down for "1s"', async () => {
    const { state } = await mountApp('/boost');
    await click(await booster('Handheld'));
    const dialog = await find('[role="dialog"]');
    expect(dialog.textContent).toContain('Handheld');
    expect(state.calls.some((c) => c.path === '/update-level')).toBe(false);
    await click(await button('Upgrade', 2_000).then(() => dialog.querySelector<HTMLButtonElement>('.btn--block')!));
    await findToast('Upgrade successful');
    expect(dialog.querySelector('.btn--block')!.textContent).toBe('1s');
    expect(state.status.fingerLevel).toBe(4);
    await findText('Lv 4');
    await find('[role="dialog"] .btn--block', 'Upgrade', 2_500);
  });

  it('shows the server message when an upgrade is refused', async () => {
    const { state } = await mountApp('/boost');
    state.failures['/update-level'] = 400;
    await click(await booster('Handheld'));
    await click((await find('[role="dialog"]')).querySelector<HTMLButtonElement>('.btn--block')!);
    await findToast('Something broke');
  });

  it('falls back to the generic message when the upgrade fails without one', async () => {
    const { state } = await mountApp('/boost');
    state.failures['/update-level'] = 'network';
    await click(await booster('Handheld'));
    await click((await find('[role="dialog"]')).querySelector<HTMLButtonElement>('.btn--block')!);
    await findToast('Something went wrong, please try again later!', 20_000);
  });

  it('disables an upgrade the balance cannot pay for', async () => {
    await mountApp('/boost', { status: demoStatus({ totalEarn: '10' }) });
    await click(await booster('Energy Limit'));
    const confirm = (await find('[role="dialog"]')).querySelector<HTMLButtonElement>('.btn--block')!;
    expect(confirm.disabled).toBe(true);
    expect(confirm.textContent).toBe('Not enough money');
  });
});
