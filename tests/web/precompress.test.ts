import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants as zlib, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ResolvedConfig } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { apiPrefix } from '../../engine/wire/api-types.ts';
import { registerWeb } from '../../server/web/web-plugin.ts';
import { precompressPlugin } from '../../server/web/vite-precompress.ts';

const script = `console.log(${JSON.stringify('MONEY '.repeat(400))});`;
const style = `.tap { color: gold; }\n`.repeat(100);
const map = JSON.stringify({ version: 3, mappings: 'AAAA;'.repeat(400) });
const dirs: string[] = [];
const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A built client as Vite leaves it, before the plugin's last hook. */
const makeDist = (): string => {
  const root = mkdtempSync(join(tmpdir(), 'money-precompress-'));
  dirs.push(root);
  const dist = join(root, 'dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), `<!doctype html><html><head></head><body><!--money-config--><div id="root">${'x'.repeat(600)}</div></body></html>`);
  writeFileSync(join(dist, 'assets', 'index-Ab12Cd34.js'), script);
  writeFileSync(join(dist, 'assets', 'index-Ab12Cd34.js.map'), map);
  writeFileSync(join(dist, 'assets', 'app-Zz99.css'), style);
  writeFileSync(join(dist, 'logo.png'), Buffer.alloc(2_000, 7));
  return dist;
};

/** Runs the plugin's hooks as `vite build` does, on `dist`. */
const runPlugin = async (dist: string): Promise<void> => {
  const plugin = precompressPlugin();
  const hook = <T>(h: unknown): T => (typeof h === 'function' ? h : (h as { handler: T }).handler) as T;
  hook<(c: ResolvedConfig) => void>(plugin.configResolved)({ root: join(dist, '..'), build: { outDir: 'dist' } } as ResolvedConfig);
  await hook<() => Promise<void>>(plugin.closeBundle).call({});
};

const serve = async (dist: string): Promise<FastifyInstance> => {
  const app = Fastify();
  apps.push(app);
  await registerWeb(app, {
    distDir: dist,
    publicConfig: { botUsername: 'b', twitterUrl: '', channelUrl: '', communityUrl: '', adsgramBlockId: '', turnstileSiteKey: '', storyShareUserId: '', apiBase: apiPrefix },
    https: false,
  });
  await app.ready();
  return app;
};

const get = (app: FastifyInstance, url: string, encoding: string) => app.inject({ url, headers: { 'accept-encoding': encoding } });

describe('compressed forms written by the build', () => {
  it('writes brotli and gzip forms of scripts and styles, and none of source maps, images or the raw document', async () => {
    const dist = makeDist();
    await runPlugin(dist);
    for (const [file, body] of [['assets/index-Ab12Cd34.js', script], ['assets/app-Zz99.css', style]] as const) {
      expect(brotliDecompressSync(readFileSync(join(dist, `${file}.br`))).toString()).toBe(body);
      expect(gunzipSync(readFileSync(join(dist, `${file}.gz`))).toString()).toBe(body);
    }
    for (const file of ['assets/index-Ab12Cd34.js.map', 'logo.png', 'index.html'])
      for (const suffix of ['.br', '.gz']) expect(existsSync(join(dist, file + suffix)), file + suffix).toBe(false);
  });

  it('serves the forms the build wrote, byte for byte, and never as files of their own', async () => {
    const dist = makeDist();
    // Brotli at another quality than the server's own: its bytes tell which one answered.
    const own = brotliCompressSync(script, { params: { [zlib.BROTLI_PARAM_QUALITY]: 1 } });
    writeFileSync(join(dist, 'assets', 'index-Ab12Cd34.js.br'), own);
    const app = await serve(dist);
    const br = await get(app, '/assets/index-Ab12Cd34.js', 'br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(Buffer.compare(br.rawPayload, own)).toBe(0);
    // No gzip form was written: the server makes its own.
    const gz = await get(app, '/assets/index-Ab12Cd34.js', 'gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const file = await get(app, '/assets/index-Ab12Cd34.js.br', 'identity');
    expect(file.statusCode).toBe(404);
    expect(file.headers['content-type']).toMatch(/^text\/html/);
  });

  it('ignores a form older than its file, which a later build left stale', async () => {
    const dist = makeDist();
    await runPlugin(dist);
    const js = join(dist, 'assets', 'index-Ab12Cd34.js');
    const changed = `${script}\nconsole.log('rebuilt');`;
    writeFileSync(js, changed);
    utimesSync(`${js}.br`, 1_000, 1_000);
    const app = await serve(dist);
    const br = await get(app, '/assets/index-Ab12Cd34.js', 'br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(changed);
  });

  it('serves the same bytes as a build without the forms, where the server compresses at start', async () => {
    const built = makeDist();
    await runPlugin(built);
    const plain = makeDist();
    const [a, b] = [await serve(built), await serve(plain)];
    for (const url of ['/assets/index-Ab12Cd34.js', '/assets/app-Zz99.css'])
      for (const encoding of ['br', 'gzip']) {
        const [x, y] = [await get(a, url, encoding), await get(b, url, encoding)];
        expect(x.headers['content-encoding']).toBe(encoding);
        expect(Buffer.compare(x.rawPayload, y.rawPayload), `${url} ${encoding}`).toBe(0);
      }
  });
});
