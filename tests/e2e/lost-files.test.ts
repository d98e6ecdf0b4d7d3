/**
 * The app survives a lost file (docs/mini-app.md "Lost files"). A proxy on 127.0.0.1 in front of
 * the real server refuses the first N requests of each kind of file the app loads (JS chunks, CSS,
 * /art/*.svg, locale catalogs) with 503 and Retry-After, as a shedding server or a flaky network
 * does; only the document and its entry script pass (the app shell: no code of ours runs before
 * them). In Chromium, in English and Persian, the mini-app still starts and a tap is credited, its
 * bottom-bar icons all load, and the site and the console start. A screen that cannot load at all
 * shows "Reconnecting…" in the player's language, never React Router's own page, and comes back by
 * itself; the console's Players page rides out 503s with Retry-After without showing them.
 */
import { readFileSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loadAttempts } from '../../src/retry-load.ts';
import { apiAs, launchFor, openStack, serverNow, testUser, type RunningServer } from './harness.ts';
import { openForSuite } from '../suite-fixture.ts';

type Kind = 'js' | 'css' | 'svg' | 'locale';

/** Which kind of file a path is; null for anything else (the document, the API). */
const kindOf = (path: string): Kind | null => {
  if (/^\/art\/[^/]+\.svg$/.test(path)) return 'svg';
  if (/^\/assets\/[^/]+\.css$/.test(path)) return 'css';
  // A catalog is compiled into a chunk of its own: `fa.json-<hash>.js` (docs/i18n.md).
  if (/^\/assets\/[^/]+\.json-[\w-]+\.js$/.test(path)) return 'locale';
  if (/^\/assets\/[^/]+\.js$/.test(path)) return 'js';
  return null;
};

/** Each kind's first requests refused: fewer than a chunk's tries, so every refusal is one a retry must ride out. */
const refusedPerKind = loadAttempts - 1;

const busyBody = JSON.stringify({ error: 'Service Unavailable', message: 'The game is very busy right now, please try again in a moment', code: 'overloaded' });

interface Served {
  path: string;
  url: string;
  status: number;
}

/** The refusing proxy: forwards everything to `target`, refusing what it was told to. */
const startProxy = async (target: string, entryScript: string) => {
  const refused = new Map<Kind, number>();
  const served: Served[] = [];
  let blocked: RegExp | null = null;
  // The engine's worker script, refused its first time on top of the kinds' counts: a worker that
  // did not load is made again (src/engine-client/bridge.ts).
  const worker = /^\/assets\/worker-[\w-]+\.js$/;
  const apiRefusals = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const path = url.split('?')[0] ?? '/';
    const kind = path === entryScript ? null : kindOf(path);
    const firstWorker = worker.test(path) && !served.some((s) => s.path === path);
    const refuseFile = kind !== null && (blocked?.test(path) || firstWorker || (refused.get(kind) ?? 0) < refusedPerKind);
    const refuseApi = (apiRefusals.get(path) ?? 0) > 0;
    if (refuseFile || refuseApi) {
      if (kind && !blocked?.test(path) && !firstWorker) refused.set(kind, (refused.get(kind) ?? 0) + 1);
      if (refuseApi) apiRefusals.set(path, (apiRefusals.get(path) ?? 0) - 1);
      served.push({ path, url, status: 503 });
      res.writeHead(503, { 'retry-after': '1', 'content-type': 'application/json; charset=utf-8' });
      res.end(busyBody);
      return;
    }
    const upstream = http.request(`${target}${url}`, { method: req.method, headers: req.headers }, (up) => {
      served.push({ path, url, status: up.statusCode ?? 0 });
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    /** Starts over: each kind's first requests are refused again. */
    reset() {
      refused.clear();
      served.length = 0;
      blocked = null;
    },
    refusedOf: (kind: Kind) => refused.get(kind) ?? 0,
    /** Refuses every request for files matching `re` until called with null. */
    block(re: RegExp | null) {
      blocked = re;
    },
    /** Refuses the next `n` requests for an API path. */
    refuseApi(path: string, n: number) {
      apiRefusals.set(path, n);
    },
    close: () => new Promise<void>((res) => server.close(() => res())),
  };
};
type Proxy = Awaited<ReturnType<typeof startProxy>>;

const catalog = (domain: 'app' | 'site', locale: string): Record<string, string> =>
  JSON.parse(readFileSync(resolve(import.meta.dirname, `../../engine/rules/i18n/catalogs/${domain}/${locale}.json`), 'utf8')) as Record<string, string>;

const shotsDir = resolve(import.meta.dirname, '../screenshots/out');

/** Waits until `read` gives a value `ok` accepts, or fails with the last one. */
const eventually = async <T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 60_000): Promise<T> => {
  const until = Date.now() + timeoutMs;
  let last = await read();
  while (!ok(last) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 200));
    last = await read();
  }
  return last;
};

/**
 * A context that records, in the page, any text React Router's default error page would show
 * (it would flash and go, so the page watches every change).
 */
const watchedContext = async (browser: Browser, viewport: { width: number; height: number }): Promise<BrowserContext> => {
  const context = await browser.newContext({ viewport, hasTouch: viewport.width < 500, deviceScaleFactor: viewport.width < 500 ? 2 : 1 });
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { defaultErrorSeen: string[] }).defaultErrorSeen = seen;
    new MutationObserver(() => {
      const text = document.body?.textContent ?? '';
      if (/Unexpected Application Error|Hey developer/.test(text)) seen.push(text.slice(0, 200));
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  return context;
};

const defaultErrorSeen = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { defaultErrorSeen: string[] }).defaultErrorSeen);

/** Every SVG the proxy refused was later served whole, and so was every bottom-bar icon's file. */
const expectArtRecovered = async (page: Page, proxy: Proxy, masks: '.nav__icon' | '.icon'): Promise<void> => {
  const refusedArt = new Set(proxy.served.filter((s) => s.status === 503 && s.path.endsWith('.svg')).map((s) => s.path));
  expect(refusedArt.size).toBeGreaterThan(0);
  await eventually(
    async () => [...refusedArt].filter((p) => !proxy.served.some((s) => s.path === p && s.status === 200)),
    (missing) => missing.length === 0,
  ).then((missing) => expect(missing).toEqual([]));
  // A mask gets its file's address once a probe loaded it (src/art-url.ts): every one is an address the proxy served whole.
  const iconUrls = async () => page.$$eval(masks, (els) => els.map((el) => /url\("?([^")]+)"?\)/.exec((el as HTMLElement).style.getPropertyValue('--icon'))?.[1] ?? ''));
  const unloaded = await eventually(
    async () => (await iconUrls()).filter((u) => !proxy.served.some((s) => s.url === u && s.status === 200)),
    (left) => left.length === 0,
  );
  expect(unloaded).toEqual([]);
  expect((await iconUrls()).length).toBeGreaterThanOrEqual(masks === '.nav__icon' ? 5 : 4);
};

describe('the app survives lost files (a proxy refuses the first requests of each kind)', () => {
  let proxy: Proxy;
  const stack = openForSuite(async () => {
    const opened = await openStack('pglite');
    const html = await (await fetch(`${opened.server.base}/`)).text();
    const entry = /<script type="module"[^>]* src="([^"]+)"/.exec(html)?.[1];
    if (!entry) throw new Error('no entry script in the document');
    proxy = await startProxy(opened.server.base, entry);
    return { ...opened, close: async () => (await proxy.close(), await opened.close()) };
  });
  const viaProxy = (server: RunningServer): RunningServer => ({ ...server, base: proxy.base });

  describe.each(['en', 'fa'])('the mini-app in %s', (locale) => {
    const app = catalog('app', locale);
    const player = testUser(locale === 'en' ? 101 : 102, { language_code: locale });

    /** The welcome reward claimed, so the player lands on home with the bottom bar; their status. */
    const onHome = async () => {
      const api = apiAs(stack.server, player, await serverNow(stack.server));
      if (!(await api.status()).isClaimedWelcome) expect((await api.call('POST', '/claim-welcome-rw')).status).toBe(200);
      return api.status();
    };

    it('starts, shows its bottom bar with every icon, and credits a tap', async () => {
      const before = await onHome();
      proxy.reset();
      const context = await watchedContext(stack.browser, { width: 375, height: 812 });
      const page = await context.newPage();
      await page.goto(launchFor(viaProxy(stack.server), player, await serverNow(stack.server)));
      const coin = page.getByRole('button', { name: app['app.home.tapCoin'] });
      await coin.waitFor({ timeout: 60_000 });
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(locale === 'fa' ? 'rtl' : 'ltr');
      await page.getByRole('navigation', { name: app['app.nav.main'] }).waitFor();
      // Every kind was refused its first requests, the engine's worker its first load, and still the app started.
      for (const kind of ['js', 'css', 'svg', 'locale'] as const) expect(proxy.refusedOf(kind), kind).toBe(refusedPerKind);
      expect(proxy.served.filter((s) => /\/worker-/.test(s.path)).map((s) => s.status).slice(0, 2)).toEqual([503, 200]);
      // The styles are in: the page's background is the theme's, not the browser's white.
      expect(await page.evaluate(() => getComputedStyle(document.querySelector('.nav')!).position)).toBe('fixed');
      await expectArtRecovered(page, proxy, '.nav__icon');

      await coin.click();
      const after = await eventually(() => apiAs(stack.server, player, Date.now()).status(), (s) => s.totalClick === before.totalClick + 1);
      expect(after.totalClick).toBe(before.totalClick + 1);
      expect(await defaultErrorSeen(page)).toEqual([]);
      await context.close();
    });

    it('a screen that cannot load shows "Reconnecting…" in the player’s language, then comes back by itself', async () => {
      await onHome();
      proxy.reset();
      const context = await watchedContext(stack.browser, { width: 375, height: 812 });
      const page = await context.newPage();
      await page.goto(launchFor(viaProxy(stack.server), player, await serverNow(stack.server)));
      await page.getByRole('button', { name: app['app.home.tapCoin'] }).waitFor({ timeout: 60_000 });
      // Earn's chunk is refused every time until released.
      proxy.block(/^\/assets\/earn-screen-[\w-]+\.js$/);
      await page.getByRole('navigation', { name: app['app.nav.main'] }).getByText(app['app.nav.earn']!).click();
      const alert = page.getByRole('alert').filter({ hasText: app['app.msg.reconnecting'] });
      await alert.waitFor({ timeout: 60_000 });
      // Read at once: the element tries again by itself a second later.
      const shown = await alert.textContent();
      expect(shown).toContain(app['app.routeError.body']);
      expect(shown).toContain(app['app.routeError.retry']);
      // The bottom bar stays beside it.
      await page.getByRole('navigation', { name: app['app.nav.main'] }).waitFor();
      mkdirSync(shotsDir, { recursive: true });
      await page.screenshot({ path: join(shotsDir, `lost-files-route-error-${locale}.png`) });
      proxy.block(null);
      // It tries again by itself (the backoff), and the screen comes.
      await page.getByTestId('task-1').waitFor({ timeout: 60_000 });
      expect(await alert.count()).toBe(0);
      expect(await defaultErrorSeen(page)).toEqual([]);
      await context.close();
    });
  });

  it('the site starts: its styles, its text and its icons', async () => {
    proxy.reset();
    const site = catalog('site', 'fa');
    const context = await watchedContext(stack.browser, { width: 1280, height: 900 });
    const page = await context.newPage();
    await page.goto(`${proxy.base}/?lang=fa`);
    await page.getByRole('link', { name: site['site.landing.join'] }).first().waitFor({ timeout: 60_000 });
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.site-header')!).display)).not.toBe('inline');
    for (const kind of ['js', 'css', 'svg', 'locale'] as const) expect(proxy.refusedOf(kind), kind).toBeGreaterThan(0);
    await expectArtRecovered(page, proxy, '.icon');
    expect(await defaultErrorSeen(page)).toEqual([]);
    await context.close();
  });

  it('a site page that cannot load shows "Reconnecting…" in the visitor’s language, then comes back by itself', async () => {
    proxy.reset();
    const site = catalog('site', 'fa');
    const context = await watchedContext(stack.browser, { width: 375, height: 812 });
    const page = await context.newPage();
    await page.goto(`${proxy.base}/?lang=fa`);
    await page.getByRole('link', { name: site['site.landing.join'] }).first().waitFor({ timeout: 60_000 });
    proxy.block(/^\/assets\/terms-page-[\w-]+\.js$/);
    await page.locator('a[href="/terms"]').first().click();
    const alert = page.getByRole('alert').filter({ hasText: site['site.routeError.title'] });
    await alert.waitFor({ timeout: 60_000 });
    // Read at once: the element tries again by itself a second later.
    const shown = await alert.textContent();
    expect(shown).toContain(site['site.routeError.body']);
    expect(shown).toContain(site['site.routeError.retry']);
    mkdirSync(shotsDir, { recursive: true });
    await page.screenshot({ path: join(shotsDir, 'lost-files-site-route-error-fa.png') });
    proxy.block(null);
    // It tries again by itself (the backoff), and the page comes.
    await page.locator('main h1').filter({ hasNotText: site['site.routeError.title'] }).waitFor({ timeout: 60_000 });
    expect(await alert.count()).toBe(0);
    expect(await defaultErrorSeen(page)).toEqual([]);
    await context.close();
  });

  it('the console starts, and its Players page rides out 503s with Retry-After', async () => {
    // A player to list (signing in makes one).
    await apiAs(stack.server, testUser(103), await serverNow(stack.server)).status();
    proxy.reset();
    const context = await watchedContext(stack.browser, { width: 1280, height: 900 });
    const page = await context.newPage();
    await page.addInitScript(() => {
      const busy: string[] = [];
      (window as unknown as { busySeen: string[] }).busySeen = busy;
      new MutationObserver(() => {
        if (/very busy/.test(document.body?.textContent ?? '')) busy.push('shown');
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await page.goto(`${proxy.base}/dev/admin`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor({ timeout: 60_000 });
    for (const kind of ['js', 'css'] as const) expect(proxy.refusedOf(kind), kind).toBe(refusedPerKind);
    proxy.refuseApi('/money/api/admin/players', 2);
    await page.getByRole('navigation').getByRole('link', { name: 'Players' }).click();
    // The newest players' table fills once the third read is answered.
    const search = page.locator('section', { has: page.getByRole('heading', { name: 'Find a player' }) });
    await search.locator('a[href^="/admin/players/"]').first().waitFor({ timeout: 60_000 });
    // Two refusals ridden out, then answered (the page may read the list again, answered too).
    const reads = proxy.served.filter((s) => s.path === '/money/api/admin/players').map((s) => s.status);
    expect(reads.slice(0, 3)).toEqual([503, 503, 200]);
    expect(reads.slice(3).filter((status) => status !== 200)).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { busySeen: string[] }).busySeen)).toEqual([]);
    expect(await defaultErrorSeen(page)).toEqual([]);
    await context.close();
  });
});
