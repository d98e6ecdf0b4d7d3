import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShopOrderView, ShopView } from '../../engine/rules/shop.ts';
import { webhookSecret } from '../../server/bot/settings.ts';
import { invoiceRefusal, startFakeTelegram, type FakeTelegram } from '../../server/dev/stand-ins/fake-telegram.ts';
import { reconcileStars, refundOrder, updateShopItem } from '../../server/shop/exports.ts';
import { ledgerMatchesBalances } from './db-helpers.ts';
import { backends, botToken, harnessOn, openHarness, type Harness } from './harness.ts';

const hookUrl = 'https://money.example/money/api/v1/airdrop/public/telegram-webhook';
const consoleActor = { kind: 'console' as const, adminId: 42 };

/** Polls `check` until it holds; past `ms` throws (a bound on a hang, not a timed assertion). */
const until = async (check: () => Promise<boolean> | boolean, what: string, ms = 30_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('the fake Telegram refuses invoices Telegram refuses', () => {
  const good = { title: 'Energy refill', description: 'Full energy', payload: 'order:1', currency: 'XTR', prices: JSON.stringify([{ label: 'Energy', amount: 10 }]) };
  it('accepts one XTR price and refuses a long title, a long payload, two prices, a provider token', () => {
    expect(invoiceRefusal(good)).toBeNull();
    expect(invoiceRefusal({ ...good, title: 'x'.repeat(33) })).toMatch(/TITLE/);
    expect(invoiceRefusal({ ...good, payload: 'é'.repeat(65) })).toMatch(/PAYLOAD/);
    expect(invoiceRefusal({ ...good, prices: JSON.stringify([{ label: 'a', amount: 5 }, { label: 'b', amount: 5 }]) })).toMatch(/STARS_INVOICE_INVALID/);
    expect(invoiceRefusal({ ...good, provider_token: 'tok' })).toMatch(/PROVIDER/);
  });
});

describe.each(backends)('the Stars shop (%s)', (backend) => {
  let tg: FakeTelegram;
  let h: Harness;
  let second: Harness;
  beforeAll(async () => {
    tg = await startFakeTelegram(botToken);
    h = await openHarness(backend, undefined, { BOT_API_ROOT: tg.apiRoot, WEBHOOK_URL: hookUrl, PUBLIC_URL: 'https://money.example' });
    // A second app instance on the same database: two processes taking webhooks.
    second = await harnessOn(h.db, h.config, h.clock, undefined, false);
    let turn = 0;
    // Telegram delivers each update to one of the processes, and redelivers until one answers 2xx.
    tg.transport = async (update) => {
      const app = turn++ % 2 === 0 ? h : second;
      const r = await app.call('POST', '/public/telegram-webhook', null, { body: update, headers: { 'x-telegram-bot-api-secret-token': webhookSecret(h.config) } });
      return r.statusCode >= 200 && r.statusCode < 300;
    };
  });
  afterAll(async () => {
    await second?.close();
    await h?.close();
    await tg?.close();
  });

  const order = async (user: number, itemId: string): Promise<ShopOrderView> => {
    const r = await h.call('POST', '/shop/orders', user, { body: { itemId } });
    expect(r.statusCode, r.body).toBe(200);
    return r.json<ShopOrderView>();
  };
  const stateOf = async (user: number, orderId: string) => (await h.call('GET', `/shop/orders/${orderId}`, user)).json<{ state: string }>().state;
  const paymentsOf = async (orderId: string) => (await h.db.query('SELECT * FROM star_payments WHERE order_id = $1', [Number(orderId)])).rows.length;
  const status = async (user: number) => (await h.call('GET', '', user)).json<{ totalEarn: string; availableEnergy: number; tapBoostUntil?: number; totalClick: number }>();

  it('lists the default catalog in the player’s language', async () => {
    const id = await h.newPlayer({ language_code: 'ru' });
    const shop = (await h.call('GET', '/shop', { id, language_code: 'ru' })).json<ShopView>();
    expect(shop.items.map((i) => [i.id, i.effect, i.price, i.dailyLimit])).toEqual([
      ['energy-refill', 'energyRefill', 10, 3],
      ['double-tap-day', 'doubleTap', 50, 1],
      ['auto-tap-pack', 'autoTaps', 25, 5],
    ]);
    expect(shop.items[0]!.title).toBe('Полная энергия');
  });

  it('refuses bad input with a 4xx naming the field, and makes no order', async () => {
    const id = await h.newPlayer();
    const count = async () => Number((await h.db.query<{ n: string }>('SELECT count(*) AS n FROM shop_orders WHERE user_id = $1', [id])).rows[0]!.n);
    const missing = await h.call('POST', '/shop/orders', id, { body: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ field: 'itemId' });
    const bad = await h.call('POST', '/shop/orders', id, { body: { itemId: 'DROP TABLE' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'itemId' });
    const unknown = await h.call('POST', '/shop/orders', id, { body: { itemId: 'no-such-item' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'shopItemNotFound', field: 'itemId' });
    expect((await h.call('GET', '/shop/orders/99999999999', id)).json()).toMatchObject({ code: 'shopOrderNotFound' });
    expect((await h.call('GET', '/shop/orders/abc', id)).json()).toMatchObject({ field: 'orderId' });
    expect(await count()).toBe(0);
  });

  it('makes an XTR invoice with one price and the order id in its payload', async () => {
    const id = await h.newPlayer();
    const o = await order(id, 'energy-refill');
    const invoice = tg.invoiceOf(o.invoiceLink)!;
    expect(invoice).toMatchObject({ payload: `order:${o.orderId}`, amount: 10, title: 'Energy refill' });
    expect(await stateOf(id, o.orderId)).toBe('created');
  });

  it('credits an auto-tap pack only on successful_payment, once, though it is delivered twice', async () => {
    const id = await h.newPlayer();
    const before = await status(id);
    const o = await order(id, 'auto-tap-pack');
    const paid = await tg.pay(o.invoiceLink, { id }, { times: 2 });
    expect(paid.status).toBe('paid');
    await until(async () => (await stateOf(id, o.orderId)) === 'paid' && tg.undelivered === 0, 'the order paid');
    const after = await status(id);
    // 5,000 taps at the tap value 1, no energy spent.
    expect(Number(after.totalEarn) - Number(before.totalEarn)).toBe(5000);
    expect(after.totalClick - before.totalClick).toBe(5000);
    expect(after.availableEnergy).toBe(before.availableEnergy);
    expect(await paymentsOf(o.orderId)).toBe(1);
    // Telegram redelivers it again later: still once.
    if (paid.status === 'paid') tg.redeliverPayment(paid.chargeId);
    await until(() => tg.undelivered === 0, 'the redelivery taken');
    expect((await status(id)).totalEarn).toBe(after.totalEarn);
    const xtr = await h.db.query<{ amount: string; kind: string }>("SELECT amount, kind FROM ledger WHERE user_id = $1 AND currency = 'XTR'", [id]);
    expect(xtr.rows).toEqual([{ amount: '25', kind: 'stars-order' }]);
    expect(await ledgerMatchesBalances(h.db, [id])).toBe(true);
  });

  it('refills energy and doubles the tap value for the hours bought, through the same tap rule', async () => {
    const id = await h.newPlayer();
    expect((await h.call('POST', '/click', id, { body: { click: 30, batchId: 'b1' } })).json()).toMatchObject({ accepted: 30 });
    const refill = await order(id, 'energy-refill');
    await tg.pay(refill.invoiceLink, { id });
    await until(async () => (await stateOf(id, refill.orderId)) === 'paid', 'the refill paid');
    expect((await status(id)).availableEnergy).toBe(500);
    const day = await order(id, 'double-tap-day');
    await tg.pay(day.invoiceLink, { id });
    await until(async () => (await stateOf(id, day.orderId)) === 'paid', 'the double day paid');
    const boosted = await status(id);
    expect(boosted.tapBoostUntil).toBe(h.clock.now() + 24 * 3_600_000);
    h.clock.advance(10_000);
    await h.call('POST', '/click', id, { body: { click: 10, batchId: 'b2' } });
    expect(Number((await status(id)).totalEarn) - Number(boosted.totalEarn)).toBe(20);
    expect(await ledgerMatchesBalances(h.db, [id])).toBe(true);
  });

  it('refuses at pre-checkout, in the player’s language, an order that is gone, over the limit, or off', async () => {
    const id = await h.newPlayer({ language_code: 'es' });
    const stale = await order(id, 'energy-refill');
    h.clock.advance(61 * 60_000);
    expect(await tg.pay(stale.invoiceLink, { id, language_code: 'es' })).toEqual({ status: 'failed', reason: 'Este pedido ha caducado, abre la tienda y cómpralo de nuevo' });
    const a = await order(id, 'double-tap-day');
    const b = await order(id, 'double-tap-day');
    await tg.pay(a.invoiceLink, { id });
    await until(async () => (await stateOf(id, a.orderId)) === 'paid', 'the first day paid');
    expect(await tg.pay(b.invoiceLink, { id, language_code: 'es' })).toMatchObject({ status: 'failed', reason: expect.stringMatching(/vuelve mañana/) });
    expect((await h.call('POST', '/shop/orders', id, { body: { itemId: 'double-tap-day' } })).json()).toMatchObject({ code: 'shopDailyLimit' });
    // Paying a paid order's link again is refused too.
    expect(await tg.pay(a.invoiceLink, { id, language_code: 'es' })).toMatchObject({ status: 'failed', reason: 'Este pedido ya está pagado' });
    const c = await order(id, 'auto-tap-pack');
    await updateShopItem(h.db, consoleActor, 'auto-tap-pack', { enabled: false }, h.clock.now());
    try {
      expect(await tg.pay(c.invoiceLink, { id, language_code: 'es' })).toMatchObject({ status: 'failed', reason: 'Este artículo no está a la venta ahora' });
      expect((await h.call('POST', '/shop/orders', id, { body: { itemId: 'auto-tap-pack' } })).statusCode).toBe(409);
    } finally {
      await updateShopItem(h.db, consoleActor, 'auto-tap-pack', { enabled: true }, h.clock.now());
    }
    expect(await stateOf(id, c.orderId)).toBe('created');
  });

  it('credits a successful_payment that arrives before its pre-checkout was recorded, and once across two processes at once', async () => {
    const id = await h.newPlayer();
    const o = await order(id, 'auto-tap-pack');
    const before = await status(id);
    const chargeId = `stxRACE${id}`;
    const update = (n: number) => ({
      update_id: 9_000_000 + n,
      message: { message_id: 1, date: 1, chat: { id, type: 'private', first_name: 'A' }, from: { id, is_bot: false, first_name: 'A' },
        successful_payment: { currency: 'XTR', total_amount: 25, invoice_payload: `order:${o.orderId}`, telegram_payment_charge_id: chargeId, provider_payment_charge_id: '' } },
    });
    const post = (app: Harness, n: number) => app.call('POST', '/public/telegram-webhook', null, { body: update(n), headers: { 'x-telegram-bot-api-secret-token': webhookSecret(h.config) } });
    // Out of order (no pre-checkout seen) and twice at once, on both processes (distinct update ids, as after a redelivery).
    const answers = await Promise.all([post(h, id % 1000), post(second, (id % 1000) + 1), post(h, (id % 1000) + 2)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(await stateOf(id, o.orderId)).toBe('paid');
    expect(Number((await status(id)).totalEarn) - Number(before.totalEarn)).toBe(5000);
    expect(await paymentsOf(o.orderId)).toBe(1);
  });

  it('refunds a paid order with refundStarPayment, takes back what it can and records what it could not', async () => {
    const id = await h.newPlayer();
    const o = await order(id, 'auto-tap-pack');
    await tg.pay(o.invoiceLink, { id });
    await until(async () => (await stateOf(id, o.orderId)) === 'paid', 'the pack paid');
    // The player spends most of the pack's dollars before the refund.
    await h.db.query("INSERT INTO ledger (user_id, currency, amount, kind, created_at_ms) SELECT id, 'DOLLAR', 1000 - total_earn, 'test', 0 FROM users WHERE id = $1", [id]);
    await h.db.query('UPDATE users SET total_earn = 1000 WHERE id = $1', [id]);
    const r = await refundOrder(h.db, h.config, consoleActor, Number(o.orderId), h.clock.now());
    expect(r).toMatchObject({ state: 'refunded', taken: { dollars: '1000' }, notTaken: { dollars: '4000' } });
    expect((await status(id)).totalEarn).toBe('0');
    expect(tg.starTransactions.filter((t) => t.receiver?.user.id === id)).toHaveLength(1);
    const audit = await h.db.query("SELECT action, target FROM admin_audit WHERE target = $1", [`order:${o.orderId}`]);
    expect(audit.rows).toEqual([{ action: 'shop.refund', target: `order:${o.orderId}` }]);
    await expect(refundOrder(h.db, h.config, consoleActor, Number(o.orderId), h.clock.now())).rejects.toMatchObject({ code: 'shopRefundNotPaid' });
    const xtr = await h.db.query<{ amount: string }>("SELECT amount FROM ledger WHERE user_id = $1 AND currency = 'XTR' ORDER BY id", [id]);
    expect(xtr.rows.map((x) => x.amount)).toEqual(['25', '-25']);
    expect(await ledgerMatchesBalances(h.db, [id])).toBe(true);
    expect(await stateOf(id, o.orderId)).toBe('refunded');
  });

  it('reconciles the orders with getStarTransactions and flags a payment it never received', async () => {
    await until(() => tg.undelivered === 0, 'every update taken');
    const clean = await reconcileStars(h.db, h.config, h.clock.now());
    expect(clean.flagged).toBe(0);
    tg.starTransactions.push({ id: 'stxNEVERSEEN', amount: 7, date: 1, source: { type: 'user', user: { id: 1, is_bot: false, first_name: 'X' }, invoice_payload: 'order:1' } });
    const run = await reconcileStars(h.db, h.config, h.clock.now());
    expect(run).toEqual({ read: 1, flagged: 1 });
    const flags = await h.db.query('SELECT charge_id, problem FROM star_reconciliation');
    expect(flags.rows).toEqual([{ charge_id: 'stxNEVERSEEN', problem: 'unknownHere' }]);
  });
});
