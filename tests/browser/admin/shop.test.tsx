import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { csrfHeader, type AdminShop, type AdminShopItem, type AdminShopOrder, type Page } from '../../../engine/wire/admin-types.ts';
import { setCsrfToken } from '../../../src/admin/api.ts';
import ShopPage from '../../../src/admin/pages/shop-page.tsx';
import { render, until } from '../site/render.tsx';
import { button, click, consoleTestHooks, fakeApi, json, type } from './harness.ts';

const titles = { en: 'Energy refill', ru: 'Полная энергия', uk: 'Повна енергія', fa: 'پر کردن انرژی', id: 'Isi ulang energi', vi: 'Nạp đầy năng lượng', tr: 'Enerji doldurma', es: 'Recarga de energía', 'pt-BR': 'Recarga de energia' };
const refill: AdminShopItem = { id: 'energy-refill', effect: 'energyRefill', priceStars: 10, amount: 0, dailyLimit: 3, enabled: true, titles, position: 1 };
const pack: AdminShopItem = { id: 'auto-tap-pack', effect: 'autoTaps', priceStars: 1500, amount: 5000, dailyLimit: 5, enabled: false, titles: { ...titles, en: '5,000 auto-taps' }, position: 3 };
const today = '2026-03-14';
const shop: AdminShop = {
  today,
  items: [refill, pack],
  revenue: [{ day: today, itemId: 'auto-tap-pack', orders: 12, stars: 18_000, refunds: 1, refundedStars: 1500 }],
  flags: [{ chargeId: 'stxMISSING1', problem: 'unknownHere', detail: 'Telegram lists a payment of 10 Stars (payload order:9) we never received', foundAtMs: Date.parse(`${today}T08:00:00Z`) }],
  unmatched: [],
};
const order = (id: string, state: AdminShopOrder['state']): AdminShopOrder => ({
  id, userId: '6000000001', itemId: 'energy-refill', priceStars: 10, state, createdAtMs: Date.parse(`${today}T09:00:00Z`), paidAtMs: state === 'created' ? null : Date.parse(`${today}T09:01:00Z`), refundedAtMs: null, chargeId: state === 'created' ? null : `stx${id}`, notTakenBack: null,
});
const orders: Page<AdminShopOrder> = { items: [order('8', 'created'), order('7', 'paid')], next: null };

consoleTestHooks();
afterEach(() => vi.restoreAllMocks());

const openPage = async () => {
  const host = await render(<MemoryRouter><ShopPage /></MemoryRouter>);
  await until(() => expect(host.querySelector('[data-testid="shop-order-7"]')).not.toBeNull());
  return host;
};

describe('shop page', () => {
  it('lists the catalog, revenue a day by item with grouped numbers, the orders with their states and the reconciliation flags', async () => {
    fakeApi((m, p) => (m === 'GET' && p.startsWith('/shop?') ? json(200, shop) : m === 'GET' && p === '/shop/orders' ? json(200, orders) : undefined));
    const host = await openPage();
    const item = host.querySelector('[data-testid="shop-item-auto-tap-pack"]')!;
    expect([...item.querySelectorAll('td')].map((c) => c.textContent)).toEqual(['5,000 auto-tapsauto-tap-pack', 'Auto-tap pack', '1,500 ★', '5,000 taps', '5', 'off', 'Edit']);
    const revenue = [...host.querySelectorAll('[data-testid="stars-revenue"] .table-wrap tbody tr')].map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent));
    expect(revenue).toEqual([['energy-refill', '0', '0', '0', '0', '0'], ['auto-tap-pack', '12', '18,000', '1', '1,500', '16,500']]);
    // Only a paid order can be refunded.
    expect(host.querySelector('[data-testid="shop-order-8"]')!.textContent).toContain('created');
    expect(host.querySelector('[data-testid="shop-order-8"] button')).toBeNull();
    expect(host.querySelector('[data-testid="shop-order-7"] button')!.textContent).toBe('Refund');
    expect(host.querySelector('[data-testid="shop-flags"]')!.textContent).toContain('Paid at Telegram, never received here');
  });

  it('edits an item with the CSRF token and shows the server’s refusal under the titles', async () => {
    setCsrfToken('csrf-shop');
    const calls = fakeApi((m, p) => {
      if (m === 'GET' && p.startsWith('/shop?')) return json(200, shop);
      if (m === 'GET' && p === '/shop/orders') return json(200, orders);
      if (m === 'POST' && p === '/shop/items/energy-refill')
        return json(400, { error: 'Bad Request', code: 'shopItemInvalid', message: 'titles: Telegram allows at most 32 characters; too long: ru', field: 'titles', fields: { titles: 'Telegram allows at most 32 characters; too long: ru' } });
      return undefined;
    });
    const host = await openPage();
    await click(host.querySelector('[data-testid="shop-item-energy-refill"] button')!);
    const editor = host.querySelector('[aria-label="Edit energy-refill"]')!;
    const inputs = [...editor.querySelectorAll('input')];
    await type(inputs[0]!, '12');
    const ru = editor.querySelector('input[lang="ru"]')!;
    await type(ru, 'Полная энергия прямо сейчас, без ожидания');
    expect(editor.textContent).toContain('41/32');
    expect(editor.querySelector('input[lang="fa"]')!.getAttribute('dir')).toBe('rtl');
    await click(button(editor, 'Save'));
    await until(() => expect(editor.querySelector('.field__error')?.textContent).toBe('Telegram allows at most 32 characters; too long: ru'));
    const post = calls.find((c) => c.method === 'POST')!;
    expect((post.init.headers as Record<string, string>)[csrfHeader]).toBe('csrf-shop');
    expect(JSON.parse(post.init.body as string)).toEqual({ priceStars: 12, amount: 0, dailyLimit: 3, enabled: true, titles: { ...titles, ru: 'Полная энергия прямо сейчас, без ожидания' } });
  });

  it('refunds an order only once confirmed, and says what could not be taken back', async () => {
    const calls = fakeApi((m, p) => {
      if (m === 'GET' && p.startsWith('/shop?')) return json(200, shop);
      if (m === 'GET' && p === '/shop/orders') return json(200, orders);
      if (m === 'POST' && p === '/shop/orders/7/refund') return json(200, { orderId: '7', state: 'refunded', taken: { energy: 1200 }, notTaken: { energy: 3800 } });
      return undefined;
    });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const host = await openPage();
    const refund = host.querySelector('[data-testid="shop-order-7"] button')!;
    await click(refund);
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    await click(refund);
    await until(() => expect(host.querySelector('[data-testid="refund-result"]')).not.toBeNull());
    expect(confirm.mock.calls[0]![0]).toContain('Refund order 7: 10 ★ back to player 6000000001');
    expect(host.querySelector('[data-testid="refund-result"]')!.textContent).toBe(
      'Order 7 refunded: 10 ★ went back to the player.Taken back: 1,200 energy.Could not be taken back (already used): 3,800 energy.',
    );
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/shop/orders/7/refund']);
  });
});
