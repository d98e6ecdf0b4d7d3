/**
 * The operator console in Chromium against the real server process, once per database: sign in
 * with the printed development link (signed init data, as the bot's /admin button opens it), find
 * a player and freeze them (their taps are refused and the mini-app says so), create a task after
 * a field error (players list it), send a broadcast to a test list and cancel it, settle the
 * forecast (the right guess is paid), and read it all in the audit log. With SHOTS_DIR set, every
 * page is photographed at 1280 and 375 px wide.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../../engine/wire/api-types.ts';
import { frozenPlayerMessage } from '../../engine/wire/admin-types.ts';
import { advanceClock, apiAs, dbKinds, freshDatabase, launchBrowser, launchFor, removeDir, serverNow, startServer, tempDataDir, testUser, type RunningServer } from './harness.ts';

const shotsDir = process.env.SHOTS_DIR;
const pages = ['/', '/players', '/tasks', '/broadcasts', '/shop', '/forecast', '/airdrop', '/audit'];

describe.each(dbKinds)('operator console end to end (%s)', (kind) => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let drop: () => Promise<void>;
  const run = Math.floor(Math.random() * 1_000_000);
  const player = testUser(run * 10 + 1, { username: `frozen_${run}` });
  const guesser = testUser(run * 10 + 2);

  beforeAll(async () => {
    const db = await freshDatabase(kind);
    drop = db.drop;
    // The console job runs on the stats cadence: every 2 s here, so the dashboard has today's players.
    server = await startServer({ dataDir: tempDataDir(), databaseUrl: db.url, env: { STATS_REFRESH_MS: '2000' } });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('dialog', (d) => void d.accept());
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (server) removeDir(server.dataDir);
    await drop?.();
  });

  const signIn = async () => {
    await page.goto(`${server.base}/dev/admin`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  };
  const nav = async (label: string) => {
    await page.getByRole('navigation').getByRole('link', { name: label }).click();
  };

  it('prints an admin sign-in link, and signs in with it', async () => {
    expect(server.output()).toMatch(/Admin sign-in: http:\/\/localhost:\d+\/admin#tgWebAppData=/);
    await signIn();
    // Nothing but the console answers without the session: a fresh context is sent to sign in.
    const stranger = await browser.newPage();
    await stranger.goto(`${server.base}/admin/players`);
    await stranger.getByRole('heading', { name: 'MONEY console' }).waitFor();
    expect(await (await stranger.request.get(`${server.base}/money/api/admin/players?q=1`)).status()).toBe(401);
    await stranger.close();
  });

  it('fits the Daily table at 1280 px: no horizontal scrolling, its Set buttons in view', async () => {
    await signIn();
    await nav('Daily');
    await page.locator('.daily-table tbody tr').first().waitFor();
    const fit = await page.evaluate(() => {
      const wrap = document.querySelector('.daily-table')!.parentElement!;
      const sets = [...document.querySelectorAll<HTMLElement>('.daily-table tbody button')].map((b) => b.getBoundingClientRect());
      return { scroll: wrap.scrollWidth - wrap.clientWidth, page: document.documentElement.scrollWidth - window.innerWidth, setRights: sets.map((r) => r.right), wrapRight: wrap.getBoundingClientRect().right };
    });
    expect(fit.scroll).toBe(0);
    expect(fit.page).toBe(0);
    expect(fit.setRights.length).toBeGreaterThan(0);
    for (const right of fit.setRights) expect(right).toBeLessThanOrEqual(fit.wrapRight);
  });

  it('finds a player and freezes them: taps are refused and the mini-app shows why', async () => {
    const now = await serverNow(server);
    const api = apiAs(server, player, now);
    await api.status();
    await nav('Players');
    await page.getByRole('searchbox').or(page.getByPlaceholder('Telegram id, @username or refcode')).first().fill(`@frozen_${run}`);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: `frozen_${run}` }).click();
    await page.getByRole('button', { name: 'Freeze' }).click();
    await page.getByText(/frozen since/).waitFor();
    const refused = await api.call<{ message: string }>('POST', '/click', { click: 1, batchId: 'e2e-1' });
    expect(refused.status).toBe(423);
    expect(refused.body.message).toBe(frozenPlayerMessage);
    const app = await browser.newPage({ viewport: { width: 375, height: 812 } });
    await app.goto(launchFor(server, player, now));
    await app.getByRole('alert').filter({ hasText: 'Your account is frozen' }).first().waitFor();
    if (shotsDir) await app.screenshot({ path: `${shotsDir}/mini-app-frozen-375.png` });
    await app.close();
  });

  it('creates a task after a field error; players list it', async () => {
    await nav('Tasks');
    await page.getByRole('button', { name: 'New task' }).click();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('must be 1–100 characters').waitFor();
    await page.getByLabel('Title').fill(`Watch our launch stream ${run}`);
    await page.getByLabel(/^Link/).fill('https://x.com/money/live');
    await page.getByTestId('task-preview').getByText(`Watch our launch stream ${run}`).waitFor();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('cell', { name: `Watch our launch stream ${run}`, exact: true }).waitFor();
    const tasks = await apiAs(server, guesser, await serverNow(server)).call<Task[]>('GET', '/tasks?type=SOCIAL');
    expect(tasks.body.map((t) => t.title)).toContain(`Watch our launch stream ${run}`);
  });

  it('sends a broadcast to a test list and cancels what is pending', async () => {
    await nav('Broadcasts');
    await page.getByLabel(/^Message/).fill('Season 2 starts today!');
    await page.getByTestId('broadcast-preview').getByText('Season 2 starts today!').waitFor();
    await page.getByLabel('Telegram ids').fill(String(player.id));
    await page.getByRole('button', { name: 'Send' }).click();
    const item = page.locator('.broadcast').filter({ hasText: 'Season 2 starts today!' });
    await item.getByText('pending 1 of 1').waitFor();
    await item.getByRole('button', { name: 'Cancel' }).click();
    await item.getByText('cancelled', { exact: true }).waitFor();
  });

  it('settles the forecast from the console: the right guess is paid 7,777 MONEY once', async () => {
    const api = apiAs(server, guesser, await serverNow(server));
    expect((await api.call('POST', '/set-predict-wallet-coming?days=1')).status).toBe(200);
    const later = await advanceClock(server, 2 * 86_400_000);
    const launchDay = new Date(later - 86_400_000).toISOString().slice(0, 10);
    // Two days on, the morning's session has expired: sign in again.
    await signIn();
    await nav('Forecast');
    await page.getByLabel('Launch day').fill(launchDay);
    await page.getByRole('button', { name: 'Settle' }).click();
    await page.getByRole('status').getByText('Paid 1 right forecast now; 1 in all.').waitFor();
    expect((await apiAs(server, guesser, later).status()).totalMoney).toBe('7777');
    await page.getByRole('button', { name: 'Pay any unpaid right forecasts' }).click();
    await page.getByRole('status').getByText('Paid 0 right forecasts now; 1 in all.').waitFor();
  });

  it('lists every action in the audit log', async () => {
    await nav('Audit log');
    for (const action of ['player.freeze', 'task.create', 'broadcast.send', 'broadcast.cancel', 'forecast.settle'])
      await page.getByRole('cell', { name: action, exact: true }).first().waitFor();
  });

  it.runIf(shotsDir !== undefined && kind === 'pglite')('photographs every page at 1280 and 375', async () => {
    mkdirSync(shotsDir!, { recursive: true });
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      for (const p of pages) {
        await page.goto(`${server.base}/admin${p}`);
        await page.locator('main.page h1').waitFor();
        await page.waitForTimeout(400);
        await page.screenshot({ path: `${shotsDir}/admin${p === '/' ? '-dashboard' : p.replace('/', '-')}-${width}.png`, fullPage: true });
      }
      await page.goto(`${server.base}/admin/players`);
      await page.getByPlaceholder('Telegram id, @username or refcode').fill(`@frozen_${run}`);
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('link', { name: `frozen_${run}` }).click();
      await page.getByRole('heading', { name: 'Ledger' }).waitFor();
      await page.screenshot({ path: `${shotsDir}/admin-player-${width}.png`, fullPage: true });
      await page.goto(`${server.base}/admin/tasks`);
      await page.getByRole('button', { name: 'Edit' }).first().click();
      await page.getByTestId('task-preview').waitFor();
      await page.screenshot({ path: `${shotsDir}/admin-task-editor-${width}.png`, fullPage: true });
    }
    const out = await browser.newPage({ viewport: { width: 375, height: 812 } });
    await out.goto(`${server.base}/admin`);
    await out.context().clearCookies();
    await out.goto(`${server.base}/admin`);
    await out.getByRole('heading', { name: 'MONEY console' }).waitFor();
    await out.screenshot({ path: `${shotsDir}/admin-sign-in-375.png` });
    await out.close();
  });
});
