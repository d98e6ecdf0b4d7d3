import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../../vite.config.ts';
import { createFakeState } from '../browser/mini-app/fake-api.ts';
import { launchHash, routeApi, serve } from './serve.ts';
const { server, origin } = await serve(join(process.cwd(), 'node_modules/.cache/money-screenshots'));
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
const [lang, path, ...selectors] = process.argv.slice(2);
const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
await routeApi(context, createFakeState());
const page = await context.newPage();
await page.goto(`${origin}/app${path}${launchHash('light', lang)}`);
await page.waitForTimeout(1200);
for (const sel of selectors) {
  const visual = await page.locator(sel).first().evaluate((el) => {
    const chars: { c: string; x: number }[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const t = n.textContent ?? '';
      for (let i = 0; i < t.length; i++) {
        const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
        const b = r.getBoundingClientRect(); if (b.width > 0) chars.push({ c: t[i]!, x: b.left });
      }
    }
    return chars.sort((a, b) => a.x - b.x).map((c) => c.c).join('');
  });
  console.log(sel, '→ left to right:', JSON.stringify(visual));
}
await browser.close(); server.close();
