/**
 * The public site in other languages (docs/i18n.md), full-page at 375 and 1280 px:
 * `<out>/site-<lang>-<page>-<width>.png`. Run after a build:
 * `SITE_DIST=dist SHOTS_DIR=/tmp/shots LANGS=ru,fa,id node --import tsx bench/site-i18n-screenshots.ts`.
 */
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { apiPrefix } from '../engine/api-types.ts';
import { chromiumArgs, chromiumPath } from '../vite.config.ts';
import { startStaticServer } from './site-dist.ts';

const out = process.env.SHOTS_DIR ?? new URL('../tests/screenshots/out/', import.meta.url).pathname;
mkdirSync(out, { recursive: true });
const langs = (process.env.LANGS ?? 'ru,fa,id').split(',');
const pages = (process.env.PAGES ?? '/,/policy,/terms').split(',');

const site = await startStaticServer(process.env.SITE_DIST);
const base = site.url.replace(/\/$/, '');
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
try {
  for (const width of [375, 1280]) {
    const page = await browser.newPage({ viewport: { width, height: width < 500 ? 812 : 800 }, deviceScaleFactor: 1 });
    await page.route(`**${apiPrefix}/public/stats`, (route) =>
      route.fulfill({ json: { totalClick: 1_284_907_312, totalPaticipant: 2_417_553, totalEarn: '98133204511.25' } }),
    );
    for (const lang of langs) {
      for (const path of pages) {
        await page.goto(`${base}${path}?lang=${lang}`, { waitUntil: 'networkidle' });
        await page.waitForSelector('main h1');
        for (let y = 0; y < (await page.evaluate(() => document.body.scrollHeight)); y += 600) {
          await page.evaluate((top) => window.scrollTo(0, top), y);
          await page.waitForTimeout(50);
        }
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.waitForLoadState('networkidle');
        const name = path === '/' ? 'landing' : path.slice(1);
        // A page wider than the viewport means a translation broke the layout.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        await page.screenshot({ path: `${out}/site-${lang}-${name}-${width}.png`, fullPage: true });
        // The first screen at full resolution, where the header and the hero are.
        await page.screenshot({ path: `${out}/site-${lang}-${name}-${width}-top.png` });
        console.log(`site-${lang}-${name}-${width}.png${overflow > 0 ? ` OVERFLOWS by ${overflow}px` : ''}`);
      }
    }
    await page.close();
  }
} finally {
  await browser.close();
  await site.stop();
}
