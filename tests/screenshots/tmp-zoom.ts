import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../../vite.config.ts';
import { createFakeState } from '../browser/mini-app/fake-api.ts';
import { launchHash, routeApi, serve } from './serve.ts';
const root = process.cwd();
const { server, origin } = await serve(join(root, 'node_modules/.cache/money-screenshots'));
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
const [lang, path, ...selectors] = process.argv.slice(2);
const context = await browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 3 });
await routeApi(context, createFakeState());
const page = await context.newPage();
await page.goto(`${origin}/app${path}${launchHash('light', lang)}`);
await page.waitForTimeout(1200);
let i = 0;
for (const sel of selectors) {
  if (sel.startsWith('click:')) { await page.getByRole('button', { name: sel.slice(6) }).or(page.getByRole('tab', { name: sel.slice(6) })).first().click(); await page.waitForTimeout(500); continue; }
  await page.locator(sel).first().screenshot({ path: `/tmp/zoom-${lang}-${i++}.png` });
}
await browser.close(); server.close();
