/** What both site screenshot scripts do with a page (bench/site-screenshots.ts, bench/site-i18n-screenshots.ts). */
import { chromium, type Browser, type Page } from 'playwright-core';
import { apiPrefix } from '../engine/wire/api-types.ts';
import { chromiumArgs, chromiumPath } from '../vite.config.ts';
import type { RunningSite } from './site-dist.ts';

/** Runs `shoot` at 375 and 1280 px with Chromium and the site's base URL, then closes both. */
export const shootWidths = async (site: RunningSite, shoot: (browser: Browser, base: string, width: number) => Promise<void>): Promise<void> => {
  const base = site.url.replace(/\/$/, '');
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    for (const width of [375, 1280]) await shoot(browser, base, width);
  } finally {
    await browser.close();
    await site.stop();
  }
};

/** A page `width` wide; a fresh database counts zero everywhere, so the stats tiles show launch-sized numbers. */
export const sitePage = async (browser: Browser, width: number): Promise<Page> => {
  const page = await browser.newPage({ viewport: { width, height: width < 500 ? 812 : 800 }, deviceScaleFactor: 1 });
  await page.route(`**${apiPrefix}/public/stats`, (route) =>
    route.fulfill({ json: { totalClick: 1_284_907_312, totalPaticipant: 2_417_553, totalEarn: '98133204511.25' } }),
  );
  return page;
};

/** Opens `url` and walks down the page so lazy images load, then back to the top. */
export const openSettled = async (page: Page, url: string): Promise<void> => {
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.waitForSelector('main h1');
  for (let y = 0; y < (await page.evaluate(() => document.body.scrollHeight)); y += 600) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForTimeout(50);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForLoadState('networkidle');
};
