/**
 * A day of the daily loop (docs/rules.md §15) in Chromium against the real server process, once per
 * database: an operator sets tomorrow's combo and word in the console API; the next UTC day the
 * player claims the streak on the calendar, finds the combo on Boost and enters the word in Morse
 * on the coin, and the server pays each once. The day before prepares a player who can afford the
 * three cards (taps, a first card, three hours of passive income), on the server's test clock.
 */
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminApiPrefix, csrfHeader, type AdminDailyDay, type AdminSession } from '../../engine/wire/admin-types.ts';
import type { UserStatus } from '../../engine/wire/api-types.ts';
import { dayStartMs, isoDay, streakRewardMoney, utcDayOf } from '../../engine/rules/daily.ts';
import { economy } from '../../engine/rules/economy.ts';
import { money } from '../../engine/rules/money.ts';
import { toMorse } from '../../engine/client/morse.ts';
import { initDataOf } from '../../server/dev/launch-url.ts';
import { advanceClock, apiAs, dbKinds, launchFor, openStack, serverNow, testUser } from './harness.ts';
import { openForSuite } from '../suite-fixture.ts';

const adminId = 7_700_000_321;
const word = 'COIN';
const combo = [4, 5, 6];

describe.each(dbKinds)('a day of the daily loop, real server on %s', (kind) => {
  const stack = openForSuite(() => openStack(kind, { ADMIN_IDS: String(adminId) }));
  const player = testUser(kind === 'pglite' ? 51 : 61, { first_name: 'Dora', username: 'dora_daily' });
  let context: BrowserContext;
  let page: Page;
  let playDay = 0;
  const api = async () => apiAs(stack.server, player, await serverNow(stack.server));
  const status = async (): Promise<UserStatus> => (await api()).status();
  /** Moves the server's clock to `ms` (it only moves forward). */
  const clockTo = async (ms: number) => {
    const now = await serverNow(stack.server);
    if (ms > now) await advanceClock(stack.server, ms - now);
  };

  beforeAll(async () => {
    context = await stack.browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, hasTouch: true });
    page = await context.newPage();
    page.on('pageerror', (e) => console.log('page exception:', e.message));
  });

  it('the day before: a player who can afford the combo, and an operator who sets tomorrow', async () => {
    // Start a fresh UTC day, so the preparation's three hours stay inside it.
    const prepDay = utcDayOf(await serverNow(stack.server)) + 1;
    playDay = prepDay + 1;
    await clockTo(dayStartMs(prepDay) + 30_000);
    const a = await api();
    expect((await a.call('POST', '/claim-welcome-rw')).status).toBe(200);
    // Taps as the human-rate allowance lets them in (20/s, a burst of 40), then the first card.
    for (let i = 0; i < 3; i++) {
      await advanceClock(stack.server, 12_000);
      await (await api()).call('POST', '/click', { click: 240, batchId: `prep-${i}` });
    }
    expect(money((await status()).totalEarn).gte(275)).toBe(true);
    expect((await (await api()).call('POST', '/update-level', { levelKey: 4 })).status).toBe(200);
    // Three hours of its income (the §9 cap), then four more levels of card 4 and four of card 5.
    await advanceClock(stack.server, economy.offlineRewardCapMs);
    for (const key of [4, 4, 4, 4, 5, 5, 5, 5]) expect((await (await api()).call('POST', '/update-level', { levelKey: key })).status).toBe(200);
    expect((await status()).passiveEarnLevel).toMatchObject({ 4: 5, 5: 4 });

    // The operator sets tomorrow in the console API: three cards and the word.
    const initData = initDataOf(launchFor(stack.server, testUser(0, { id: adminId, first_name: 'Op', username: 'op_daily' }), await serverNow(stack.server)));
    const login = await fetch(`${stack.server.base}${adminApiPrefix}/login/init-data`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: stack.server.base },
      body: JSON.stringify({ initData }),
    });
    expect(login.status).toBe(200);
    const session = (await login.json()) as AdminSession;
    const cookie = String(login.headers.get('set-cookie')).split(';')[0]!;
    const set = await fetch(`${stack.server.base}${adminApiPrefix}/daily/${isoDay(playDay)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', origin: stack.server.base, cookie, [csrfHeader]: session.csrfToken },
      body: JSON.stringify({ combo, cipher: word.toLowerCase() }),
    });
    expect(set.status).toBe(200);
    expect((await set.json()) as AdminDailyDay).toMatchObject({ day: isoDay(playDay), combo, cipher: word });
    // Nothing the player is sent names tomorrow's secrets.
    expect(JSON.stringify(await status())).not.toContain(word);
  });

  it('the next day: claims the streak, finds the combo and enters the word, each paid once', async () => {
    await clockTo(dayStartMs(playDay) + 60_000);
    const before = await status();
    expect(before.daily).toMatchObject({ day: isoDay(playDay), streak: { claimedToday: false, step: 1 }, combo: { found: [] }, cipher: { solved: false } });

    await page.goto(launchFor(stack.server, player, await serverNow(stack.server)));
    // Three hours of passive income waited overnight: "Money Dream" offers it first (§2).
    const dream = page.getByRole('dialog', { name: 'Money Dream' });
    if (await dream.waitFor({ timeout: 10_000 }).then(() => true, () => false)) {
      await dream.getByRole('button', { name: 'Claim' }).click();
      await dream.waitFor({ state: 'detached' });
    }
    // The streak: Home's tile waits with its dot; the calendar claims day 1.
    const streakTile = page.getByTestId('daily-streak');
    await streakTile.locator('.daily__dot').waitFor();
    await streakTile.click();
    const sheet = page.getByRole('dialog');
    await sheet.getByTestId('streak-day-1').waitFor();
    await sheet.getByRole('button', { name: /^Claim/ }).click();
    await sheet.getByRole('button', { name: /Come back in/ }).waitFor();
    await shot(page, 'streak-claimed', kind);
    await sheet.getByRole('button', { name: 'Close popup' }).click();
    await expect.poll(async () => (await status()).daily!.streak.claimedToday).toBe(true);

    // The combo: the tile opens Boost's Upgrade tab; the three cards, each upgraded once.
    await page.getByTestId('daily-combo').click();
    const panel = page.getByTestId('combo-panel');
    await panel.getByText(`0 / ${economy.dailyComboCards} found`).waitFor();
    for (const [i, key] of combo.entries()) {
      await page.getByTestId(`item-${key}`).click();
      const popup = page.getByRole('dialog');
      await popup.getByRole('button', { name: 'Upgrade', exact: true }).click();
      await page.getByText('Upgrade successful').first().waitFor();
      await popup.getByRole('button', { name: 'Close popup' }).click();
      await panel.getByText(`${i + 1} / ${economy.dailyComboCards} found`).waitFor();
    }
    await panel.getByText('Combo found! Reward paid').waitFor();
    await shot(page, 'combo-found', kind);

    // The cipher: Home's tile turns the coin into a Morse key; presses on it are no taps.
    await page.getByRole('link', { name: 'Home' }).click();
    const clicksBefore = (await status()).totalClick;
    await page.getByTestId('daily-cipher').click();
    await page.getByTestId('cipher-mode').waitFor();
    const key = page.getByRole('button', { name: 'Morse key: tap for a dot, hold for a dash' });
    await key.click();
    await page.getByTestId('cipher-word').locator('.cipher__dot').waitFor();
    await page.getByRole('button', { name: '⌫ Erase' }).click();
    for (const letter of toMorse(word).split(' ')) {
      for (const symbol of letter) await page.keyboard.press(symbol === '.' ? 'Period' : 'Minus');
      await page.keyboard.press('Space');
    }
    await expect.poll(async () => page.getByTestId('cipher-word').textContent()).toBe(word);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('cipher-solved').waitFor();
    await shot(page, 'cipher-solved', kind);

    const after = await status();
    expect(after.daily).toMatchObject({ streak: { claimedToday: true, days: 1 }, combo: { complete: true }, cipher: { solved: true } });
    expect(after.daily!.combo.found.slice().sort()).toEqual(combo);
    expect(after.totalClick).toBe(clicksBefore);
    const paid = streakRewardMoney(1) + economy.dailyComboRewardMoney + economy.dailyCipherRewardMoney;
    expect(money(after.totalMoney).minus(before.totalMoney).toNumber()).toBe(paid);

    // Replays pay nothing more.
    const a = await api();
    expect((await a.call('POST', '/daily/streak')).status).toBe(409);
    expect((await a.call('POST', '/daily/cipher', { word })).status).toBe(409);
    expect((await status()).totalMoney).toBe(after.totalMoney);
  });
});

const shotsDir = process.env.MONEY_SHOTS;
async function shot(page: Page, name: string, kind: string): Promise<void> {
  if (!shotsDir || kind !== 'pglite') return;
  mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: `${shotsDir}/daily-${name}.png` });
}
