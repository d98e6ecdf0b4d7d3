/**
 * The public site in other languages (docs/i18n.md), full-page at 375 and 1280 px:
 * `<out>/site-<lang>-<page>-<width>.png`. Run after a build:
 * `SITE_DIST=dist SHOTS_DIR=/tmp/shots LANGS=ru,fa,id node --import tsx bench/site-i18n-screenshots.ts`.
 */
import { mkdirSync } from 'node:fs';
import { startStaticServer } from './site-dist.ts';
import { openSettled, shootWidths, sitePage } from './site-shots.ts';

const out = process.env.SHOTS_DIR ?? new URL('../tests/screenshots/out/', import.meta.url).pathname;
mkdirSync(out, { recursive: true });
const langs = (process.env.LANGS ?? 'ru,fa,id').split(',');
const pages = (process.env.PAGES ?? '/,/policy,/terms').split(',');

const site = await startStaticServer(process.env.SITE_DIST);
await shootWidths(site, async (browser, base, width) => {
  const page = await sitePage(browser, width);
  for (const lang of langs) {
    for (const path of pages) {
      await openSettled(page, `${base}${path}?lang=${lang}`);
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
});
