/**
 * `npm run screenshots`: every mini-app screen at 375×812, light and dark, into tests/screenshots/out/.
 * It builds the client with Vite's API, serves it on 127.0.0.1, and drives Debian's Chromium with
 * playwright-core. The API is answered by the fake of tests/browser/mini-app/fake-api.ts through
 * `context.route()`, so every state (empty, loading, popups) is reproducible. Launch parameters
 * carry init data and Telegram theme params in the URL hash, exactly as Telegram passes them.
 * Then home, boost, earn and invite in other languages (LANGS, default ru,fa,id; Telegram's
 * language_code picks them), with a report of anything wider than the 375 px viewport or a
 * button whose text does not fit (docs/i18n.md). ONLY_LANGUAGES=1 skips the first pass;
 * SHOTS_DIR writes elsewhere.
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { chromium, type Page } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../../vite.config.ts';
import { createFakeState, demoDaily, demoStatus, type FakeApiState } from '../browser/mini-app/fake-api.ts';
import { launchHash, routeApi, serve } from './serve.ts';
import { fakeAdsgramScript } from './fake-adsgram.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const outDir = join(root, 'node_modules/.cache/money-screenshots');
// The full set goes to an ignored folder; README keeps a handful in docs/screenshots (docs/mini-app.md).
const shotsDir = process.env.SHOTS_DIR ?? join(root, 'tests/screenshots/out');
const langs = (process.env.LANGS ?? 'ru,fa,id').split(',').filter(Boolean);

interface Shot {
  name: string;
  path: string;
  state?: (s: FakeApiState) => void;
  before?: (page: Page) => Promise<unknown>;
  act?: (page: Page) => Promise<void>;
}

const clickText = (text: string) => async (page: Page) => {
  await page.getByRole('button', { name: text, exact: true }).or(page.getByRole('tab', { name: text, exact: true })).first().click();
  await page.waitForTimeout(450);
};

/** A boost card: named by all it shows, so found by the title it starts with. */
const clickCard = (title: string) => async (page: Page) => {
  await page.getByRole('button', { name: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }).first().click();
  await page.waitForTimeout(450);
};

const shots: Shot[] = [
  { name: 'home', path: '/' },
  {
    name: 'home-tapping',
    path: '/',
    act: async (p) => {
      const coin = p.getByRole('button', { name: 'Tap the coin' });
      for (const [x, y] of [[90, 110], [190, 90], [140, 170], [210, 150], [110, 200], [170, 120]] as const) {
        await coin.click({ position: { x, y } });
      }
    },
  },
  { name: 'home-money-dream', path: '/', state: (s) => void (s.status.offlinePassiveReward = '12840.75') },
  { name: 'home-profile', path: '/', act: clickText('Open profile') },
  { name: 'home-loading', path: '/', state: (s) => void s.hang.push('') },
  { name: 'boost-booster', path: '/boost' },
  { name: 'boost-upgrade', path: '/boost', act: clickText('Upgrade') },
  { name: 'boost-confirm', path: '/boost', act: async (p) => { await clickText('Upgrade')(p); await clickCard('Cash Register')(p); } },
  { name: 'earn-social', path: '/earn' },
  { name: 'earn-invite', path: '/earn', act: clickText('Invite') },
  { name: 'earn-partner', path: '/earn', act: async (p) => {
    await clickText('Partner')(p);
    await p.getByLabel('Register on BingX ID').fill('88231907');
    await clickText('Check')(p);
  } },
  { name: 'earn-airdrop', path: '/earn', act: clickText('Airdrop') },
  { name: 'earn-achievements', path: '/earn', act: clickText('Achievements') },
  { name: 'earn-achievements-empty', path: '/earn', state: (s) => void (s.tasks = s.tasks.filter((t) => t.type !== 'ACHIVEMENT')), act: clickText('Achievements') },
  { name: 'earn-ads-reward', path: '/earn', before: (p) => fakeAdsgram(p, 'reward'), act: clickText('Watch') },
  { name: 'earn-ads-skip', path: '/earn', before: (p) => fakeAdsgram(p, 'skip'), act: clickText('Watch') },
  { name: 'earn-loading', path: '/earn', state: (s) => void s.hang.push('/tasks') },
  { name: 'invite', path: '/invite' },
  { name: 'invite-ref-level', path: '/invite', act: clickText('Lv 2 ↑') },
  { name: 'leaderboard', path: '/leaderboard' },
  { name: 'wallet', path: '/wallet' },
  { name: 'wallet-submitted', path: '/wallet', state: (s) => void (s.status.preWlComing = 120) },
  { name: 'wallet-mock', path: '/wallet', before: (p) => p.addInitScript(() => localStorage.setItem('money_wallet_mock', '1')) },
  { name: 'comingsoon', path: '/comingsoon' },
  ...[1, 2, 3, 4].map((step) => ({
    name: `onboarding-${step}`,
    path: '/',
    state: (s: FakeApiState) => void (s.status = { ...demoStatus({ isClaimedWelcome: false, totalMoney: '0', totalEarn: '0' }), lastClaimedTime: Date.now() }),
    before: (p: Page) => p.addInitScript((n) => localStorage.setItem('currentSection', String(n)), step),
    act: async (p: Page) => p.waitForTimeout(step === 2 || step === 3 ? 3_400 : 200),
  })),
  {
    name: 'onboarding-easter',
    path: '/',
    state: (s) => void (s.status = { ...demoStatus({ isClaimedWelcome: false }), lastClaimedTime: Date.now() }),
    before: (p) => p.addInitScript(() => localStorage.setItem('currentSection', '4')),
    act: clickText('Easter Egg'),
  },
];

/** The screens of the language pass, driven by the labels of that language's catalog. */
const languageShots = (c: Record<string, string>): Shot[] => [
  { name: 'home', path: '/' },
  { name: 'home-profile', path: '/', act: clickText(c['app.home.openProfile']!) },
  { name: 'boost-booster', path: '/boost' },
  { name: 'boost-upgrade', path: '/boost', act: clickText(c['app.boost.upgrade']!) },
  { name: 'boost-confirm', path: '/boost', act: async (p) => { await clickText(c['app.boost.upgrade']!)(p); await clickCard(c['app.boost.6.title']!)(p); } },
  { name: 'earn-social', path: '/earn' },
  { name: 'earn-achievements', path: '/earn', act: clickText(c['app.earn.achievements']!) },
  { name: 'invite', path: '/invite' },
  { name: 'wallet', path: '/wallet' },
  ...dailyShots(c),
];

/** The daily loop (docs/rules.md §15): the calendar, the combo found and not, cipher mode, the reminders switch. */
const dailyShots = (c: Record<string, string>): Shot[] => [
  { name: 'daily-calendar', path: '/', act: async (p) => { await p.getByTestId('daily-streak').click(); await p.waitForTimeout(450); } },
  { name: 'daily-combo', path: '/boost?tab=upgrade' },
  {
    name: 'daily-combo-found',
    path: '/boost?tab=upgrade',
    state: (s) => void (s.status.daily = demoDaily({ combo: { found: [5, 7, 9], complete: true, reward: '200' } })),
  },
  {
    name: 'daily-cipher',
    path: '/',
    act: async (p) => {
      await p.getByTestId('daily-cipher').click();
      // "MO" entered, and N's dash and dot under way.
      for (const key of ['Minus', 'Minus', 'Space', 'Minus', 'Minus', 'Minus', 'Space', 'Minus', 'Period']) await p.keyboard.press(key);
    },
  },
  {
    name: 'daily-profile',
    path: '/',
    act: async (p) => {
      await clickText(c['app.home.openProfile']!)(p);
      await p.getByTestId('reminders-switch').scrollIntoViewIfNeeded();
      await p.waitForTimeout(300);
    },
  },
];

/**
 * Full screen on an iPhone-sized phone (docs/mini-app.md "Full screen"): Telegram's native side is
 * played through `TelegramWebviewProxy`, the bridge Telegram's script talks to. It answers the
 * full-screen request, then sends the insets late, as iOS does: the device's safe area (notch 47,
 * home bar 34) and Telegram's content safe area (its own buttons, 46 at the top).
 */
const insets = { safe: { top: 47, bottom: 34, left: 0, right: 0 }, content: { top: 46, bottom: 0, left: 0, right: 0 } };
const fullscreenShots: Shot[] = [
  { name: 'fullscreen-home', path: '/' },
  { name: 'fullscreen-boost', path: '/boost' },
  { name: 'fullscreen-invite', path: '/invite' },
  { name: 'fullscreen-earn', path: '/earn' },
  { name: 'fullscreen-boost-confirm', path: '/boost', act: async (p) => { await clickText('Upgrade')(p); await clickCard('Cash Register')(p); } },
];

// A script string, not a function: tsx names nested functions with a helper the page lacks.
const playFullscreenPhone = (page: Page) =>
  page.addInitScript(`(() => {
    const given = ${JSON.stringify(insets)};
    const send = (type, data) => window.Telegram.WebView.receiveEvent(type, data);
    window.TelegramWebviewProxy = {
      postEvent(type) {
        if (type !== 'web_app_request_fullscreen') return;
        setTimeout(() => send('fullscreen_changed', { is_fullscreen: true }), 50);
        setTimeout(() => {
          send('safe_area_changed', given.safe);
          send('content_safe_area_changed', given.content);
        }, 300);
      },
    };
  })()`);

/** The phone's notch and home bar drawn over the page, and what lies under them or Telegram's buttons. */
const markPhone = (page: Page) =>
  page.evaluate((given) => {
    const top = given.safe.top + given.content.top;
    const bottom = window.innerHeight - given.safe.bottom;
    for (const css of [
      `top:0;left:0;right:0;height:${given.safe.top}px;background:rgb(0 0 0 / .08)`,
      'top:10px;left:50%;width:126px;height:37px;margin-left:-63px;border-radius:20px;background:#000',
      `top:${given.safe.top + 8}px;right:12px;width:88px;height:30px;border-radius:15px;background:rgb(0 0 0 / .35)`,
      'bottom:8px;left:50%;width:134px;height:5px;margin-left:-67px;border-radius:3px;background:#000',
    ]) {
      const el = document.createElement('div');
      el.setAttribute('aria-hidden', 'true');
      el.style.cssText = `position:fixed;z-index:2147483647;pointer-events:none;${css}`;
      document.body.appendChild(el);
    }
    const under: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('#root *, [data-sonner-toaster] *')) {
      const r = el.getBoundingClientRect();
      const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim()) || el.matches('button, a, input, img');
      if (!own || r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      // Under a bar and visible there (a list scrolling on under the navigation is hidden by it).
      const y = r.top < top - 0.5 ? Math.max(r.top, 0) + 0.5 : r.bottom > bottom + 0.5 ? Math.min(r.bottom, window.innerHeight) - 0.5 : null;
      if (y === null || y < 0 || y > window.innerHeight) continue;
      const hit = document.elementFromPoint(Math.min(Math.max(r.left + r.width / 2, 0), window.innerWidth - 1), y);
      if (hit && el.contains(hit)) under.push(`${el.tagName.toLowerCase()}.${el.className || ''} "${(el.textContent ?? '').trim().slice(0, 24)}" ${Math.round(r.top)}…${Math.round(r.bottom)}`);
    }
    return under;
  }, insets);

/** What does not fit a 375 px screen: boxes past its edges, and buttons or tabs whose text is cut. */
const overflowOf = (page: Page) =>
  page.evaluate(() => {
    const found: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width) found.push(`page ${document.documentElement.scrollWidth}px wide`);
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || getComputedStyle(el).visibility === 'hidden' || el.closest('[aria-hidden="true"]')) continue;
      const what = `${el.tagName.toLowerCase()}.${el.className || ''} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
      if (r.right > width + 1 || r.left < -1) found.push(`${what} at ${Math.round(r.left)}…${Math.round(r.right)}`);
      if (el.matches('button, .btn, .tabs__tab, .nav__link') && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)) found.push(`${what} text cut`);
    }
    return found;
  });

const fakeAdsgram = async (page: Page, outcome: 'reward' | 'skip') => {
  await page.route('https://sad.adsgram.ai/**', (route) =>
    route.fulfill({ contentType: 'text/javascript', body: fakeAdsgramScript(outcome) }));
};

const main = async () => {
  const only = process.argv[2];
  if (!process.env.SKIP_BUILD) await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true, sourcemap: false } });
  await mkdir(shotsDir, { recursive: true });
  const { server, origin } = await serve(outDir);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    for (const theme of process.env.ONLY_LANGUAGES ? [] : (['light', 'dark'] as const)) {
      for (const shot of shots) {
        if (only && !shot.name.startsWith(only)) continue;
        const context = await browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, colorScheme: theme });
        const state = createFakeState();
        shot.state?.(state);
        await routeApi(context, state);
        const page = await context.newPage();
        page.on('pageerror', (e) => console.error(`[${shot.name}] page error:`, e.message));
        await shot.before?.(page);
        await page.goto(`${origin}/app${shot.path === '/' ? '/' : shot.path}${launchHash(theme)}`);
        await page.waitForTimeout(900);
        await shot.act?.(page);
        if (shot.name !== 'home-tapping') await page.waitForTimeout(250);
        const file = join(shotsDir, `mini-app-${shot.name}-${theme}.png`);
        await page.screenshot({ path: file });
        console.log('wrote', file.slice(root.length));
        await context.close();
      }
    }
    let problems = 0;
    for (const shot of process.env.ONLY_LANGUAGES ? [] : fullscreenShots) {
      if (only && !shot.name.startsWith(only)) continue;
      const context = await browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, colorScheme: 'light' });
      await routeApi(context, createFakeState());
      const page = await context.newPage();
      page.on('pageerror', (e) => console.error(`[${shot.name}] page error:`, e.message));
      await playFullscreenPhone(page);
      await page.goto(`${origin}/app${shot.path === '/' ? '/' : shot.path}${launchHash('light', 'en', 'ios')}`);
      await page.waitForTimeout(900);
      await shot.act?.(page);
      await page.waitForTimeout(250);
      const under = await markPhone(page);
      problems += under.length;
      const file = join(shotsDir, `mini-app-${shot.name}-light.png`);
      await page.screenshot({ path: file });
      console.log('wrote', file.startsWith(root) ? file.slice(root.length) : file, under.length ? `\n  under a bar: ${under.join('\n  under a bar: ')}` : '');
      await context.close();
    }
    for (const lang of langs) {
      const catalog = JSON.parse(readFileSync(join(root, `engine/rules/i18n/catalogs/app/${lang}.json`), 'utf8')) as Record<string, string>;
      for (const shot of languageShots(catalog)) {
        if (only && !shot.name.startsWith(only)) continue;
        const context = await browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, colorScheme: 'light' });
        const state = createFakeState();
        shot.state?.(state);
        await routeApi(context, state);
        const page = await context.newPage();
        page.on('pageerror', (e) => console.error(`[${lang} ${shot.name}] page error:`, e.message));
        await page.goto(`${origin}/app${shot.path === '/' ? '/' : shot.path}${launchHash('light', lang.toLowerCase())}`);
        await page.waitForTimeout(900);
        await shot.act?.(page);
        await page.waitForTimeout(250);
        const file = join(shotsDir, `mini-app-${lang}-${shot.name}.png`);
        await page.screenshot({ path: file });
        const overflow = await overflowOf(page);
        problems += overflow.length;
        console.log('wrote', file.startsWith(root) ? file.slice(root.length) : file, overflow.length ? `\n  does not fit: ${overflow.join('\n  does not fit: ')}` : '');
        await context.close();
      }
    }
    if (problems > 0) process.exitCode = 1;
  } finally {
    await browser.close();
    server.close();
  }
};

await main();
