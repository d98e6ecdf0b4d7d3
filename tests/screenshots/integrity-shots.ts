/**
 * Screenshots of the airdrop's integrity review (docs/airdrop.md "Integrity review") into
 * the ignored tests/screenshots/out/ (SHOTS_DIR elsewhere; README commits at most 16 in docs/screenshots/): the Wallet screen of a player under review (English) and of one left out
 * (Persian, right to left) at 375×812, the site's /airdrop page and the console's Review page at
 * 375 and 1280. The built client is served on 127.0.0.1 (tests/screenshots/serve.ts) and driven
 * with Debian's Chromium; the player API is the fake of tests/browser/mini-app/fake-api.ts, the
 * console API a fake list of flagged players. `node --import tsx tests/screenshots/integrity-shots.ts`
 * (SKIP_BUILD=1 reuses the last build).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
import { build } from 'vite';
import { adminApiPrefix } from '../../engine/wire/admin-types.ts';
import type { AirdropFlagRow } from '../../engine/wire/airdrop-review.ts';
import type { UserStatus } from '../../engine/wire/api-types.ts';
import { chromiumArgs, chromiumPath } from '../../vite.config.ts';
import { createFakeState } from '../browser/mini-app/fake-api.ts';
import { launchHash, routeApi, serve } from './serve.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const outDir = join(root, 'node_modules/.cache/money-integrity-shots');
const shotsDir = process.env.SHOTS_DIR ?? join(root, 'tests/screenshots/out');

const flags: AirdropFlagRow[] = [
  {
    userId: '8700000012', score: 110, state: 'review', reasons: ['tapRhythm', 'tapAtCap', 'noSleep'], teleUsername: 'fast_fingers_07', totalMoney: '4210.5', decision: null, appeal: null,
    evidence: [
      { code: 'tapRhythm', text: 'In 36 of 36 measured stretches of play, the time between click batches and the taps in each hardly varied, as a script’s do.' },
      { code: 'tapAtCap', text: 'Of 18 minutes spent tapping, 100% were at the human-rate cap.' },
      { code: 'noSleep', text: 'Played in 24 of 24 hours in a row: no time to sleep.' },
    ],
    decidedAtMs: null, decisionNote: '',
  },
  {
    userId: '8700000032', score: 100, state: 'excluded', reasons: ['referralFarmInvitee', 'apiClient'], teleUsername: '', totalMoney: '12', decision: 'excluded', appeal: null,
    evidence: [
      { code: 'referralFarmInvitee', text: 'Invited by player 8700000031, whose invitees look like a farm, and never reached $100.' },
      { code: 'apiClient', text: 'Click batches came without what the mini-app always sends (its device id and a batch id): another program sent them.' },
    ],
    decidedAtMs: Date.UTC(2026, 1, 20, 10, 5), decisionNote: 'one of 150 scripted invitees',
  },
  {
    userId: '8700000031', score: 60, state: 'review', reasons: ['referralBurst', 'referralsIdle'], teleUsername: 'airdrop_king', totalMoney: '1890', decision: null, appeal: null,
    evidence: [
      { code: 'referralBurst', text: '50 invitees joined within 10 minutes.' },
      { code: 'referralsIdle', text: '150 of 150 invitees old enough to judge never reached $100.' },
    ],
    decidedAtMs: null, decisionNote: '',
  },
  {
    userId: '1843327755', score: 25, state: 'clear', reasons: ['sharedDevice'], teleUsername: 'maria_k', totalMoney: '933.25', decision: 'cleared', appeal: 'overturned',
    evidence: [
      { code: 'sharedDevice', text: 'The device this account plays on is used by 5 accounts.' },
      { code: 'trust', text: 'Trust −25: Telegram Premium, a Telegram account about 2900 days old.' },
    ],
    decidedAtMs: Date.UTC(2026, 1, 21, 16, 40), decisionNote: 'a family tablet, explained in support',
  },
];

const routeConsole = (context: BrowserContext) =>
  context.route(`**${adminApiPrefix}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname.replace(adminApiPrefix, '');
    const json = (body: unknown) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
    if (path === '/session') return json({ adminId: 7700000001, name: 'Operator', csrfToken: 'csrf', expiresAtMs: Date.now() + 3_600_000 });
    if (path === '/integrity/flags') return json({ items: flags, nextCursor: '25:1843327755', openReviews: 2 });
    return route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":"Not Found","message":"not in this fake"}' });
  });

const main = async () => {
  if (!process.env.SKIP_BUILD) await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true, sourcemap: false } });
  await mkdir(shotsDir, { recursive: true });
  const { server, origin } = await serve(outDir);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const write = (name: string) => {
    console.log('wrote', name);
    return join(shotsDir, name);
  };
  try {
    // The Wallet screen: under review (English), left out (Persian, right to left).
    const cases: [string, string, UserStatus['airdropReview']][] = [
      ['mini-app-wallet-review-en.png', 'en', { state: 'review', reasons: ['tapRhythm', 'sharedDevice'] }],
      ['mini-app-wallet-review-fa.png', 'fa', { state: 'excluded', reasons: ['referralFarmInvitee', 'apiClient'] }],
      ['mini-app-wallet-review-group-ru.png', 'ru', { state: 'review', reasons: ['treeBurst', 'youngInvitees', 'twinSessions'] }],
    ];
    for (const [name, lang, review] of cases) {
      const context = await browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, colorScheme: 'light' });
      const state = createFakeState();
      state.status.airdropReview = review;
      await routeApi(context, state);
      const page = await context.newPage();
      page.on('pageerror', (e) => console.error(`[${name}] page error:`, e.message));
      await page.goto(`${origin}/app/wallet${launchHash('light', lang)}`);
      await page.waitForSelector('[data-testid="airdrop-review"]');
      await page.waitForTimeout(400);
      await page.screenshot({ path: write(name) });
      await context.close();
    }
    // The site's /airdrop page with its dates published.
    for (const width of [375, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
      await context.route(`${origin}/airdrop`, async (route) => {
        const original = await route.fetch();
        const body = (await original.text()).replace('"turnstileSiteKey":""}', '"turnstileSiteKey":"","airdropDates":{"reviewEnds":"2026-02-27","snapshotDay":"2026-03-01"}}');
        await route.fulfill({ response: original, body });
      });
      await context.route(`**/money/api/**`, (route) => route.fulfill({ status: 503, body: '' }));
      const page = await context.newPage();
      page.on('pageerror', (e) => console.error(`[site ${width}] page error:`, e.message));
      await page.goto(`${origin}/airdrop`);
      await page.waitForSelector('.airdrop-rules h1');
      await page.waitForTimeout(400);
      await page.screenshot({ path: write(`site-airdrop-${width}.png`), fullPage: true });
      await context.close();
    }
    // The console's Review page.
    for (const width of [1280, 375]) {
      const context = await browser.newContext({ viewport: { width, height: 860 }, deviceScaleFactor: 1 });
      await routeConsole(context);
      const page = await context.newPage();
      page.on('pageerror', (e) => console.error(`[console ${width}] page error:`, e.message));
      await page.goto(`${origin}/admin/review`);
      await page.waitForSelector('[data-testid="flag-row"]');
      await page.waitForTimeout(400);
      await page.screenshot({ path: write(`console-review-${width}.png`), fullPage: true });
      await context.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
};

await main();
