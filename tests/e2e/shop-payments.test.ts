/**
 * Stars payments that go wrong, end to end (docs/shop.md "Orders", "Refunds"): the real server
 * process on a private PostgreSQL cluster (stopped and started by the test; the shared server is
 * never touched), its bot long-polling the strict Telegram stand-in run here, the mini-app and the
 * console in Chromium. Telegram's native payment sheet is played through `TelegramWebviewProxy`, the
 * bridge Telegram's script posts `web_app_open_invoice` to: the stand-in plays the payment (the
 * pre_checkout_query the bot must answer, then successful_payment) and the sheet closes "paid".
 *
 * - a successful_payment delivered twice, and once more later, credits once;
 * - one that reaches the bot while the database is away is credited once when it comes back;
 * - the console refunds a paid order: Telegram's refund, the audit row, the ledger rows, the
 *   effect taken back.
 * With SHOTS_DIR set, the console's Shop page is photographed at 1280 px.
 */
import { mkdirSync } from 'node:fs';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakePayment, type FakeTelegram } from '../../server/dev/stand-ins/fake-telegram.ts';
import type { TelegramUser } from '../../server/players/init-data.ts';
import { apiAs, launchBrowser, launchFor, serverNow, testUser, type RunningServer } from './harness.ts';
import { missingBinaries, privatePostgresSuite } from './private-postgres.ts';

const missing = missingBinaries();
if (missing.length > 0) console.warn(`shop-payments: skipped, missing ${missing.join(', ')}`);

const token = '7000000002:AAshopTOKENshopTOKENshopTOKEN_xyz';
const shotsDir = process.env.SHOTS_DIR;
const admin = testUser(990);
/** A pack's price and what it credits at finger level 1 (the default catalog, docs/shop.md). */
const pack = { id: 'auto-tap-pack', stars: 25, dollars: 5000 };

describe.skipIf(missing.length > 0)('Stars payments that go wrong, end to end (private PostgreSQL)', () => {
  const suite = privatePostgresSuite();
  let telegram: FakeTelegram;
  let server: RunningServer;
  let browser: Browser;
  let db: pg.Pool;
  /** How each payment sheet is played: the test sets it before pressing Buy. */
  let play: (link: string, payer: TelegramUser) => Promise<FakePayment> = (link, payer) => telegram.pay(link, payer);

  beforeAll(async () => {
    telegram = await startFakeTelegram(token);
    server = await suite.startServer({ BOT_TOKEN: token, BOT_API_ROOT: telegram.apiRoot, ADMIN_IDS: String(admin.id) });
    while (!/bot: @\w+ polling/.test(server.output())) await new Promise((r) => setTimeout(r, 50));
    browser = await launchBrowser();
    // Few connections, and none kept across the cluster's stop: each query takes one and gives it back.
    db = new pg.Pool({ connectionString: suite.pg.url, max: 2, idleTimeoutMillis: 100 });
    db.on('error', () => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    await db?.end();
    await telegram?.close();
  });

  const one = async <T extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<T[]> => (await db.query<T>(sql, params)).rows;
  const dollarsOf = async (user: TelegramUser) => Number((await one<{ total_earn: string }>('SELECT total_earn::text FROM users WHERE id = $1', [user.id]))[0]!.total_earn);
  const xtrLedger = async (user: TelegramUser) =>
    (await one<{ amount: string; kind: string; reference: string }>("SELECT amount::text, kind, reference FROM ledger WHERE user_id = $1 AND currency = 'XTR' ORDER BY id", [user.id])).map((r) => ({ ...r, amount: Number(r.amount) }));

  /** The mini-app on Boost in a Telegram client whose payment sheet is `play`. */
  const openBoost = async (user: TelegramUser): Promise<{ context: BrowserContext; page: Page }> => {
    const api = apiAs(server, user, await serverNow(server));
    expect((await api.call('POST', '/claim-welcome-rw')).status).toBe(200);
    const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
    await context.exposeFunction('moneyTestInvoice', async (slug: string) => (await play(`https://t.me/$${slug}`, user)).status);
    // A script string, not a function: tsx names nested functions with a helper the page lacks.
    await context.addInitScript(`(() => {
      window.TelegramWebviewProxy = {
        postEvent(type, data) {
          if (type !== 'web_app_open_invoice') return;
          const { slug } = JSON.parse(data);
          window.moneyTestInvoice(slug).then((status) => window.Telegram.WebView.receiveEvent('invoice_closed', { slug, status }));
        },
      };
    })()`);
    const page = await context.newPage();
    page.on('pageerror', (e) => console.log('page exception:', e.message));
    await page.goto(`${server.base}/app/boost#${new URL(launchFor(server, user, await serverNow(server))).hash.slice(1)}`);
    await page.getByTestId('shop').waitFor();
    return { context, page };
  };
  const buyPack = async (page: Page) => page.getByTestId(`shop-${pack.id}`).getByRole('button').click();
  const outcome = (page: Page, state: string) => page.locator(`[data-testid="shop-outcome"][data-state="${state}"]`);

  const twice = testUser(991);
  let paidOrder: { orderId: string; chargeId: string } | undefined;

  it('credits a successful_payment delivered twice, and once more later, once', async () => {
    let charge: FakePayment | undefined;
    play = async (link, payer) => (charge = await telegram.pay(link, payer, { times: 2 }));
    const { context, page } = await openBoost(twice);
    const before = await dollarsOf(twice);
    await buyPack(page);
    await outcome(page, 'paid').waitFor({ timeout: 60_000 });
    expect(charge).toMatchObject({ status: 'paid' });
    const chargeId = (charge as { chargeId: string }).chargeId;
    // Telegram delivers it yet again, later; the bot takes it and nothing more is credited.
    telegram.redeliverPayment(chargeId);
    await expect.poll(() => telegram.undelivered, { timeout: 20_000 }).toBe(0);
    await expect.poll(() => one('SELECT 1 FROM star_payments WHERE charge_id = $1', [chargeId]).then((r) => r.length), { timeout: 20_000 }).toBe(1);
    const orders = await one<{ id: string; state: string }>('SELECT id::text, state FROM shop_orders WHERE charge_id = $1', [chargeId]);
    expect(orders).toEqual([{ id: expect.any(String), state: 'paid' }]);
    expect(await dollarsOf(twice)).toBe(before + pack.dollars);
    expect(await xtrLedger(twice)).toEqual([{ amount: pack.stars, kind: 'stars-order', reference: `order:${orders[0]!.id}` }]);
    paidOrder = { orderId: orders[0]!.id, chargeId };
    await context.close();
  });

  it('credits a successful_payment that reaches the bot while the database is away, once, when it comes back', async () => {
    const away = testUser(992);
    const { context, page } = await openBoost(away);
    const before = await dollarsOf(away);
    // Telegram's updates pass through here to the bot's getUpdates; the database stops as the
    // successful_payment arrives, after the pre-checkout the bot answered with it up.
    let stoppedFor: string | undefined;
    telegram.transport = async (update) => {
      const payment = (update.message as { successful_payment?: { telegram_payment_charge_id: string } } | undefined)?.successful_payment;
      if (payment !== undefined && stoppedFor === undefined) {
        stoppedFor = payment.telegram_payment_charge_id;
        suite.pg.stop();
      }
      const { update_id: _id, ...rest } = update;
      telegram.pushUpdate(rest);
      return true;
    };
    play = (link, payer) => telegram.pay(link, payer);
    const failures = () => server.output().split('bot: payment credit failed again').length - 1;
    const failedBefore = failures();
    try {
      await buyPack(page);
      await expect.poll(() => stoppedFor, { timeout: 30_000 }).toBeDefined();
      // The bot tried the credit, found the database away, and tries again; meanwhile nothing is credited.
      await expect.poll(failures, { timeout: 30_000 }).toBeGreaterThan(failedBefore);
    } finally {
      telegram.transport = null;
      suite.pg.start();
    }
    // Said calmly: paid, or still pending if the sheet's wait ended before the credit; never failed.
    await page.locator('[data-testid="shop-outcome"]:is([data-state="paid"], [data-state="pending"])').waitFor({ timeout: 90_000 });
    const chargeId = stoppedFor!;
    await expect.poll(() => one<{ credited: boolean }>('SELECT credited FROM star_payments WHERE charge_id = $1', [chargeId]), { timeout: 60_000 }).toEqual([{ credited: true }]);
    expect(await dollarsOf(away)).toBe(before + pack.dollars);
    expect((await xtrLedger(away)).map((r) => r.kind)).toEqual(['stars-order']);
    // The balance the mini-app shows is the credited one (the engine refreshed the status).
    const status = await apiAs(server, away, await serverNow(server)).status();
    expect(Number(status.totalEarn)).toBe(before + pack.dollars);
    await context.close();
  });

  it('refunds a paid order from the console: Telegram refunds it, the effect is taken back, the audit and the ledger record it', async () => {
    expect(paidOrder).toBeDefined();
    const { orderId, chargeId } = paidOrder!;
    const before = await dollarsOf(twice);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const asked: string[] = [];
    page.on('dialog', (d) => {
      asked.push(d.message());
      void d.accept();
    });
    await page.goto(`${server.base}/admin#${new URL(launchFor(server, admin, await serverNow(server))).hash.slice(1)}`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByTestId('stars-revenue').getByText(pack.id).first().waitFor();
    await page.getByRole('navigation').getByRole('link', { name: 'Shop' }).click();
    const row = page.getByTestId(`shop-order-${orderId}`);
    await row.getByText('paid', { exact: true }).waitFor();
    if (shotsDir) {
      mkdirSync(shotsDir, { recursive: true });
      await page.screenshot({ path: `${shotsDir}/console-shop-1280.png`, fullPage: true });
      const item = page.getByTestId('shop-item-energy-refill');
      await item.getByRole('button', { name: 'Edit' }).click();
      await page.getByRole('region', { name: 'Edit energy-refill' }).screenshot({ path: `${shotsDir}/console-shop-editor-1280.png` });
      await item.getByRole('button', { name: 'Close' }).click();
    }
    await row.getByRole('button', { name: 'Refund' }).click();
    const result = page.getByTestId('refund-result');
    await result.getByText(`Order ${orderId} refunded: ${pack.stars} ★ went back to the player.`).waitFor();
    await result.getByText('Taken back: $5,000.00.').waitFor();
    await result.getByText('Everything the order gave was taken back.').waitFor();
    await row.getByText('refunded', { exact: true }).waitFor();
    expect(asked).toEqual([expect.stringContaining(`Refund order ${orderId}: ${pack.stars} ★ back to player ${twice.id}`)]);
    if (shotsDir) await page.screenshot({ path: `${shotsDir}/console-shop-refunded-1280.png`, fullPage: true });

    // Telegram refunded the charge once (a second refund is refused as already made).
    expect(telegram.starTransactions.filter((t) => t.id === chargeId && 'receiver' in t)).toHaveLength(1);
    expect(await dollarsOf(twice)).toBe(before - pack.dollars);
    expect((await xtrLedger(twice)).map((r) => [r.amount, r.kind])).toEqual([[pack.stars, 'stars-order'], [-pack.stars, 'stars-refund']]);
    const dollarRows = await one<{ amount: string; kind: string }>("SELECT amount::text, kind FROM ledger WHERE user_id = $1 AND currency = 'DOLLAR' AND reference = $2 ORDER BY id", [twice.id, `order:${orderId}`]);
    expect(dollarRows.map((r) => [Number(r.amount), r.kind])).toEqual([[pack.dollars, 'shop'], [-pack.dollars, 'shop-refund']]);
    const audit = await one<{ admin_id: string; action: string; after: { state: string } }>('SELECT admin_id::text, action, after FROM admin_audit WHERE target = $1', [`order:${orderId}`]);
    expect(audit).toEqual([{ admin_id: String(admin.id), action: 'shop.refund', after: expect.objectContaining({ state: 'refunded' }) }]);
    const order = await one<{ state: string }>('SELECT state FROM shop_orders WHERE id = $1', [orderId]);
    expect(order).toEqual([{ state: 'refunded' }]);
    await page.close();
  });
});
