/**
 * Serving the built client to a real Chromium with the fake API answering every call: shared by
 * the screenshot script and the tap benchmark (bench/tap-fps.bench.ts).
 */
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { apiPrefix } from '../../engine/wire/api-types.ts';
import { answer, type FakeApiState } from '../browser/mini-app/fake-api.ts';

export const themes = {
  light: { bg_color: '#ffffff', secondary_bg_color: '#f1f1f4', text_color: '#000000', hint_color: '#999999', link_color: '#2481cc', button_color: '#2481cc', button_text_color: '#ffffff', section_bg_color: '#ffffff' },
  dark: { bg_color: '#17212b', secondary_bg_color: '#0e1621', text_color: '#f5f5f5', hint_color: '#708499', link_color: '#6ab3f3', button_color: '#5288c1', button_text_color: '#ffffff', section_bg_color: '#17212b' },
} as const;

const initData = (languageCode: string) =>
  new URLSearchParams({
    user: JSON.stringify({ id: 5001, first_name: 'Satoshi', username: 'satoshi_fan', language_code: languageCode, is_premium: true }),
    auth_date: '1763780000',
    hash: 'f'.repeat(64),
  }).toString();

/** The URL hash Telegram opens the mini-app with: init data (the user's Telegram language), version, platform and theme. */
export const launchHash = (theme: keyof typeof themes, languageCode = 'en', platform = 'android') =>
  '#' + new URLSearchParams({
    tgWebAppData: initData(languageCode),
    tgWebAppVersion: '8.0',
    tgWebAppPlatform: platform,
    tgWebAppThemeParams: JSON.stringify(themes[theme]),
  }).toString();

const configBlock = `<script type="application/json" id="money-config">${JSON.stringify({ adsgramBlockId: 'demo-block', turnstileSiteKey: '' })}</script>`;

const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json' };

/** Serves `dir` on 127.0.0.1 with the SPA fallback and the config block written into index.html. */
export const serve = (dir: string): Promise<{ server: Server; origin: string }> =>
  new Promise((resolve) => {
    const server = createServer(async (req, res) => {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      const file = join(dir, path);
      const target = path !== '/' && existsSync(file) && extname(file) ? file : join(dir, 'index.html');
      res.setHeader('Content-Type', types[extname(target)] ?? 'application/octet-stream');
      let body: Buffer | string = await readFile(target);
      // The server writes the runtime config block into index.html; so do we (ads need a block id).
      if (target.endsWith('index.html')) body = body.toString().replace('<!--money-config-->', configBlock);
      res.end(body);
    });
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` });
    });
  });

/** Answers every API call of the context (pages and their workers) from the fake state. */
export const routeApi = async (context: BrowserContext, state: FakeApiState) => {
  await context.route(`**${apiPrefix}**`, async (route) => {
    const request = route.request();
    try {
      const response = await answer(state, request.url(), { method: request.method(), headers: await request.allHeaders(), body: request.postData() ?? undefined });
      await route.fulfill({ status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() });
    } catch {
      await route.abort('failed');
    }
  });
};

