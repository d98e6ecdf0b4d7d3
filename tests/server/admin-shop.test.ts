import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './harness.ts';
import { openSignedInAdmin, type SignedInAdminHarness } from './admin-harness.ts';
import type { AdminShop, AdminShopOrder, Page } from '../../engine/wire/admin-types.ts';
import { creditPayment } from '../../server/shop/exports.ts';

/** The console's Stars shop (docs/shop.md): the catalog edit with its audit row, refusals naming the field, revenue and flags. */
describe.each(backends)('the console’s shop (%s)', (backend) => {
  let h: SignedInAdminHarness;
  beforeAll(async () => {
    h = await openSignedInAdmin(backend);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('lists the catalog with revenue and flags, and edits an item with an audit row', async () => {
    const page = await h.admin('GET', '/shop', h.session);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json<{ items: { id: string }[]; revenue: unknown[]; flags: unknown[] }>()).toMatchObject({ today: new Date(h.clock.now()).toISOString().slice(0, 10), revenue: [], flags: [], unmatched: [] });
    const edit = await h.admin('POST', '/shop/items/energy-refill', h.session, { body: { priceStars: 15, dailyLimit: 2 } });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json()).toMatchObject({ id: 'energy-refill', priceStars: 15, dailyLimit: 2 });
    const audit = await h.db.query("SELECT action FROM admin_audit WHERE target = 'shop-item:energy-refill'");
    expect(audit.rows).toEqual([{ action: 'shop.item' }]);
  });

  it('refuses a bad edit with a 4xx naming the field and changes nothing', async () => {
    const long = await h.admin('POST', '/shop/items/energy-refill', h.session, { body: { titles: { en: 'x'.repeat(40) } } });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ field: 'titles' });
    const price = await h.admin('POST', '/shop/items/energy-refill', h.session, { body: { priceStars: 0 } });
    expect(price.statusCode).toBe(400);
    expect(price.json()).toMatchObject({ field: 'priceStars' });
    const amount = await h.admin('POST', '/shop/items/energy-refill', h.session, { body: { amount: 5 } });
    expect(amount.json()).toMatchObject({ code: 'shopItemInvalid', field: 'amount' });
    const refund = await h.admin('POST', '/shop/orders/123456789/refund', h.session, { body: {} });
    expect(refund.json()).toMatchObject({ code: 'shopOrderNotFound', field: 'orderId' });
    const item = await h.db.query<{ price_stars: number }>("SELECT price_stars FROM shop_items WHERE id = 'energy-refill'");
    expect(item.rows[0]!.price_stars).toBe(15);
  });

  it('lists the orders newest first, 50 a page, and refuses a cursor or player id out of range naming the field', async () => {
    const list = await h.admin('GET', '/shop/orders', h.session);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<Page<AdminShopOrder>>()).toEqual({ items: [], next: null });
    const bad = await h.admin('GET', '/shop/orders?before=abc', h.session);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'before' });
    const player = await h.admin('GET', '/shop/orders?userId=0', h.session);
    expect(player.statusCode).toBe(400);
    expect(player.json()).toMatchObject({ field: 'userId' });
  });

  it('lists a payment no order took until it is refunded', async () => {
    const outcome = await creditPayment(h.db, { userId: 6_100_000_001, chargeId: 'stxUNMATCHED1', payload: 'order:999999999', currency: 'XTR', totalAmount: 10 }, h.clock.now());
    expect(outcome).toEqual({ kind: 'unmatched' });
    const page = (await h.admin('GET', '/shop', h.session)).json<AdminShop>();
    expect(page.unmatched).toEqual([{ chargeId: 'stxUNMATCHED1', userId: '6100000001', stars: 10, receivedAtMs: h.clock.now() }]);
  });
});
