/**
 * The Stars shop in real play (docs/shop.md), in Chromium against the real server process with its
 * demo stand-ins: the Telegram stand-in makes the invoice link, plays the payment sheet ("demo"),
 * sends the bot its pre_checkout_query and successful_payment, and the bot (polling the stand-in)
 * credits once. Buy, cancel and fail, each said calmly on Boost, the effect at once on a paid order.
 * With MONEY_SHOTS=<dir>, the screens are saved there (375×812, en and fa).
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { UserStatus } from '../../engine/wire/api-types.ts';
import { apiAs, dbKinds, freePort, launchFor, openStack, serverNow, testUser } from './harness.ts';
import { openForSuite } from '../suite-fixture.ts';

const shotsDir = process.env.MONEY_SHOTS;

describe.each(dbKinds)('the Stars shop in real play with the demo stand-ins, real server on %s', (kind) => {
  const stack = openForSuite(() =>
    openStack(kind, async () => {
      const port = await freePort();
      return { DEMO_STAND_INS: '1', PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` };
    }),
  );
  const shot = async (page: Page, name: string) => {
    if (!shotsDir || kind !== 'pglite') return;
    mkdirSync(shotsDir, { recursive: true });
    await page.screenshot({ path: `${shotsDir}/${name}.png` });
  };

  /** A player past onboarding, on Boost, in `language`. */
  const boostPage = async (n: number, language: string) => {
    const user = testUser(kind === 'pglite' ? 70 + n : 80 + n, { language_code: language });
    const api = apiAs(stack.server, user, await serverNow(stack.server));
    expect((await api.call('POST', '/claim-welcome-rw')).status).toBe(200);
    const context = await stack.browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2 });
    const page = await context.newPage();
    page.on('pageerror', (e) => console.log('page exception:', e.message));
    await page.goto(`${stack.server.base}/app/boost#${new URL(launchFor(stack.server, user, await serverNow(stack.server))).hash.slice(1)}`);
    await page.getByTestId('shop').waitFor();
    return { page, api, context };
  };

  it('buys an auto-tap pack through the demo sheet: credited once, the balance shows it at once', async () => {
    const { page, api, context } = await boostPage(1, 'en');
    await page.getByTestId('shop').getByText('demo', { exact: true }).waitFor();
    await shot(page, 'shop-boost-en');
    const before = await api.status();
    await page.getByTestId('shop-auto-tap-pack').getByRole('button').click();
    await page.getByTestId('demo-stars-sheet').getByText('Pay ★ 25').waitFor();
    await shot(page, 'shop-sheet-en');
    await page.getByTestId('demo-stars-pay').click();
    await page.locator('[data-testid="shop-outcome"][data-state="paid"]').waitFor({ timeout: 30_000 });
    await shot(page, 'shop-paid-en');
    const after = (await api.call<UserStatus>('GET', '')).body;
    expect(Number(after.totalEarn) - Number(before.totalEarn)).toBe(5000);
    await page.getByTestId('shop-auto-tap-pack').getByText('4 of 5 left today').waitFor();
    await context.close();
  });

  it('says a cancelled and a failed payment calmly and credits nothing', async () => {
    const { page, api, context } = await boostPage(2, 'en');
    const before = await api.status();
    await page.getByTestId('shop-energy-refill').getByRole('button').click();
    await page.getByTestId('demo-stars-cancel').click();
    await page.locator('[data-testid="shop-outcome"][data-state="cancelled"]').getByText('Payment cancelled. No Stars were taken.').waitFor();
    await shot(page, 'shop-cancelled-en');
    await page.getByTestId('shop-energy-refill').getByRole('button').click();
    await page.getByTestId('demo-stars-fail').click();
    await page.locator('[data-testid="shop-outcome"][data-state="failed"]').waitFor();
    await shot(page, 'shop-failed-en');
    expect((await api.status()).totalEarn).toBe(before.totalEarn);
    await context.close();
  });

  it('reads right to left in Persian, a paid double-tap day included', async () => {
    const { page, context } = await boostPage(3, 'fa');
    await page.getByTestId('shop').getByText('فروشگاه Stars').waitFor();
    await shot(page, 'shop-boost-fa');
    await page.getByTestId('shop-double-tap-day').getByRole('button').click();
    await page.getByTestId('demo-stars-pay').click();
    await page.locator('[data-testid="shop-outcome"][data-state="paid"]').waitFor({ timeout: 30_000 });
    await shot(page, 'shop-paid-fa');
    await context.close();
  });
});
