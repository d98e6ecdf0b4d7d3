import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPrefix, type PublicConfig } from '../../engine/wire/api-types.ts';
import { registerWeb } from '../../server/web/web-plugin.ts';

const publicConfig: PublicConfig = {
  botUsername: 'TestMoneyBot',
  twitterUrl: 'https://x.com/test',
  channelUrl: 'https://t.me/test_channel',
  communityUrl: 'https://t.me/test_group',
  adsgramBlockId: '1234',
  turnstileSiteKey: '0x4AAA</script><script>alert(1)</script>',
  storyShareUserId: '42',
  apiBase: apiPrefix,
};

const bundle = `console.log(${JSON.stringify('MONEY '.repeat(400))});`;
let dist: string;

const makeDist = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'money-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><!--money-config--><div id="root"></div></body></html>',
  );
  writeFileSync(join(dir, 'assets', 'index-Ab12Cd34.js'), bundle);
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
};

const makeApp = async (https: boolean): Promise<FastifyInstance> => {
  const app = Fastify();
  // Stands in for the API that createApp registers; the web layer must leave it alone.
  app.get(`${apiPrefix}/public/stats`, () => ({ totalClick: 1, totalPaticipant: 1, totalEarn: '1' }));
  await registerWeb(app, { distDir: dist, publicConfig, https });
  await app.ready();
  return app;
};

const configIn = (html: string): unknown => {
  const m = /<script type="application\/json" id="money-config">(.*?)<\/script>/s.exec(html);
  return m ? JSON.parse(m[1] ?? '') : undefined;
};

describe('web layer', () => {
  let app: FastifyInstance;
  let httpsApp: FastifyInstance;
  beforeAll(async () => {
    dist = makeDist();
    app = await makeApp(false);
    httpsApp = await makeApp(true);
  });
  afterAll(async () => {
    await app.close();
    await httpsApp.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('injects the config block as valid JSON in place of the marker, unable to close its script element', async () => {
    const res = await app.inject('/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).not.toContain('<!--money-config-->');
    expect(res.body.match(/<\/script>/g)).toHaveLength(2);
    expect(configIn(res.body)).toEqual(publicConfig);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it.each(['/', '/policy', '/terms', '/app', '/app/earn', '/app/boost?x=1', '/admin', '/admin/players/42'])('answers the client route %s with the document', async (path) => {
    const res = await app.inject(path);
    expect(res.statusCode).toBe(200);
    expect(configIn(res.body)).toEqual(publicConfig);
  });

  it('answers unknown pages with the document and 404, but unknown API paths with the API 404', async () => {
    const page = await app.inject('/no-such-page');
    expect(page.statusCode).toBe(404);
    expect(configIn(page.body)).toEqual(publicConfig);
    const api = await app.inject(`${apiPrefix}/no-such-call`);
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toMatch(/json/);
  });

  it('never serves the raw index.html with its marker', async () => {
    const res = await app.inject('/index.html');
    expect(res.body).not.toContain('<!--money-config-->');
  });

  /** Each page's Content-Security-Policy holds every part, and its X-Frame-Options is `frame`. */
  const expectFraming = async (paths: string[], parts: (string | RegExp)[], frame: string | undefined) => {
    for (const path of paths) {
      const res = await app.inject(path);
      const csp = String(res.headers['content-security-policy']);
      for (const part of parts) expect(csp).toMatch(part);
      expect(res.headers['x-frame-options']).toBe(frame);
    }
  };

  it('lets Telegram frame the mini-app and nobody frame the public pages', async () => {
    await expectFraming(
      ['/app', '/app/invite'],
      ['frame-ancestors https://web.telegram.org https://*.telegram.org', /script-src 'self' [^;]*https:\/\/sad\.adsgram\.ai/, /frame-src [^;]*https:\/\/challenges\.cloudflare\.com/],
      undefined,
    );
    await expectFraming(['/', '/policy', '/terms'], ["frame-ancestors 'none'", "script-src 'self';", "default-src 'self'"], 'DENY');
  });

  it('lets the console load the Telegram Login Widget, and nobody frame it', async () => {
    await expectFraming(
      ['/admin', '/admin/tasks', '/admin/login?id=1&hash=x'],
      ["script-src 'self' https://telegram.org;", 'frame-src https://oauth.telegram.org', "frame-ancestors 'none'"],
      'DENY',
    );
  });

  it('sends the common security headers on pages, assets and the API', async () => {
    for (const path of ['/', '/app', '/assets/index-Ab12Cd34.js', `${apiPrefix}/public/stats`]) {
      const res = await app.inject(path);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['permissions-policy']).toContain('camera=()');
      expect(res.headers['content-security-policy']).toBeTruthy();
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
    const api = await app.inject(`${apiPrefix}/public/stats`);
    expect(api.headers['content-security-policy']).toContain("default-src 'none'");
    expect(api.json()).toEqual({ totalClick: 1, totalPaticipant: 1, totalEarn: '1' });
  });

  it('adds HSTS and upgrade-insecure-requests behind https only', async () => {
    const res = await httpsApp.inject('/');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
    expect(res.headers['content-security-policy']).toContain('upgrade-insecure-requests');
  });

  it('caches hashed assets for a year and revalidates them by ETag', async () => {
    const res = await app.inject('/assets/index-Ab12Cd34.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.body).toBe(bundle);
    const again = await app.inject({ url: '/assets/index-Ab12Cd34.js', headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
    const other = await app.inject('/favicon.svg');
    expect(other.headers['cache-control']).toBe('public, max-age=86400');
  });

  it('compresses text with brotli or gzip as the browser accepts', async () => {
    const br = await app.inject({ url: '/assets/index-Ab12Cd34.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(bundle.length / 4);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(bundle);
    const gz = await app.inject({ url: '/assets/index-Ab12Cd34.js', headers: { 'accept-encoding': 'gzip;q=1, br;q=0' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(bundle);
    expect(gz.headers.vary).toBe('Accept-Encoding');
  });
});
