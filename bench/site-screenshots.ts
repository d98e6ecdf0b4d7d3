/**
 * Screenshots of the public site at 375 and 1280 px, taken from the built app with
 * playwright-core driving Debian's Chromium: tests/screenshots/out/site-{page}-{width}.png.
 * Run after `npm run build`: `node --import tsx bench/site-screenshots.ts`.
 */
import { mkdirSync } from 'node:fs';
import { startRealServer, startStaticServer } from './site-dist.ts';
import { openSettled, shootWidths, sitePage } from './site-shots.ts';

const out = new URL('../tests/screenshots/out/', import.meta.url).pathname;
mkdirSync(out, { recursive: true });
const pages = [
  { name: 'landing', path: '/' },
  { name: 'policy', path: '/policy' },
  { name: 'terms', path: '/terms' },
];

// The real server when it can run; SITE_DIST=… (or SITE_STATIC=1) serves a build statically.
const site = process.env.SITE_DIST || process.env.SITE_STATIC ? await startStaticServer(process.env.SITE_DIST) : await startRealServer();
await shootWidths(site, async (browser, base, width) => {
  const page = await sitePage(browser, width);
  for (const p of pages) {
    await openSettled(page, base + p.path);
    await page.screenshot({ path: `${out}site-${p.name}-${width}.png`, fullPage: true });
    console.log(`site-${p.name}-${width}.png`);
  }
  await page.close();
  // The roadmap as it looked in October 2024, with phase 3 highlighted (§4), after one Future step.
  const then = await browser.newPage({ viewport: { width, height: 800 }, deviceScaleFactor: 1 });
  await then.clock.setFixedTime(new Date('2024-10-15T12:00:00Z'));
  await then.goto(`${base}/`, { waitUntil: 'networkidle' });
  await then.locator('button[aria-label="Future"]').click();
  await then.waitForTimeout(800);
  const box = await then.locator('.roadmap').evaluate((el) => ({ top: el.getBoundingClientRect().top + window.scrollY, height: el.clientHeight }));
  await then.screenshot({ path: `${out}site-roadmap-october-2024-${width}.png`, fullPage: true, clip: { x: 0, y: box.top - 16, width, height: box.height + 32 } });
  console.log(`site-roadmap-october-2024-${width}.png`);
  await then.close();
});
