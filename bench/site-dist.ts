/**
 * The built site for the benches (bench/lighthouse.ts, bench/site-screenshots.ts): the real server
 * (`server/main.ts`, as `npm start` runs it) on a free port, a small static server for dist/ when
 * the real one is not wanted, and the check that the landing page loads none of the mini-app's code.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { apiPrefix } from '../engine/wire/api-types.ts';
import { devTokenFile } from '../server/dev/dev-token.ts';

export const root = new URL('..', import.meta.url).pathname;
export const defaultDist = join(root, 'dist');

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * A small static server for dist/ with what any production server gives: gzip, long caching for
 * hashed assets, the SPA fallback, and a fixture for the one API call the landing page makes.
 */
export const serveDist = (dir: string = defaultDist): Promise<Server> => {
  dir = normalize(dir);
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (path === `${apiPrefix}/public/stats`) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ totalClick: 1_284_907_312, totalPaticipant: 2_417_553, totalEarn: '98133204511.25' }));
      return;
    }
    let file = normalize(join(dir, path));
    if (!file.startsWith(dir) || !existsSync(file) || statSync(file).isDirectory()) file = join(dir, 'index.html');
    const type = types[extname(file)] ?? 'application/octet-stream';
    let body = readFileSync(file);
    const headers: Record<string, string> = {
      'content-type': type,
      'cache-control': file.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      'x-content-type-options': 'nosniff',
    };
    if (/text|javascript|svg|json/.test(type) && /gzip/.test(String(req.headers['accept-encoding']))) {
      body = gzipSync(body);
      headers['content-encoding'] = 'gzip';
      headers.vary = 'accept-encoding';
    }
    res.writeHead(200, headers);
    res.end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
};

export interface RunningSite {
  url: string;
  stop(): Promise<void>;
  /** The real server's bot token (its development token), to sign mini-app launches; absent for the static server. */
  botToken?: () => string;
}

const freePort = async (): Promise<number> => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
};

/**
 * Starts the real server (security headers, config block, compression) on a free port with a
 * throw-away PGlite directory, serving the dist/ that is already built.
 */
export const startRealServer = async (): Promise<RunningSite> => {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'money-site-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SKIP_CLIENT_BUILD: '1', BOT_TOKEN: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}/`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (let waited = 0; ; waited += 250) {
    if (child.exitCode !== null) throw new Error(`server/main.ts exited with ${child.exitCode}`);
    if (waited > 90_000) {
      await stop();
      throw new Error('server/main.ts did not answer within 90 s');
    }
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) return { url, stop, botToken: () => readFileSync(join(dataDir, devTokenFile), 'utf8').trim() };
    await new Promise((r) => setTimeout(r, 250));
  }
};

/** Serves dist/ with serveDist on a free port. */
export const startStaticServer = async (dir?: string): Promise<RunningSite> => {
  const server = await serveDist(dir);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** Code the public site must never load (docs/site.md: the site loads none of the mini-app's code). */
const forbiddenSources = /src\/mini-app\/|src\/game\/|src\/telegram\.ts|node_modules\/(comlink|@twa-dev)\//;

export interface SiteBundle {
  /** JS files the landing page loads before it renders: the entry, the site chunk and their static imports. */
  files: { name: string; bytes: number; gzipBytes: number }[];
  gzipBytes: number;
  cssGzipBytes: number;
  /** Sources of forbidden modules found in those files (should be empty). */
  forbidden: string[];
}

/** Follows the static imports from index.html's entry and the site's chunk through a built dist/. */
export const siteBundle = (dir: string = defaultDist): SiteBundle => {
  const assets = join(dir, 'assets');
  const sourcesOf = (file: string): string[] => {
    const map = join(assets, `${file}.map`);
    return existsSync(map) ? (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources : [];
  };
  const js = readdirSync(assets).filter((f) => f.endsWith('.js'));
  const entry = /src="\/assets\/([^"]+\.js)"/.exec(readFileSync(join(dir, 'index.html'), 'utf8'))?.[1];
  const siteChunk = js.find((f) => sourcesOf(f).some((s) => s.endsWith('src/site/app.tsx')));
  if (!entry || !siteChunk) throw new Error('dist/ has no entry or no site chunk (sourcemaps are needed)');
  const seen = new Set<string>();
  const queue = [entry, siteChunk];
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    // Static imports only (`from"./x.js"`, `import"./x.js"`); dynamic import("./x.js") loads later or never.
    for (const m of readFileSync(join(assets, file), 'utf8').matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) queue.push(m[1]!);
  }
  const files = [...seen].map((name) => {
    const body = readFileSync(join(assets, name));
    return { name, bytes: body.length, gzipBytes: gzipSync(body).length };
  });
  const siteCss = readdirSync(assets).filter((f) => f.endsWith('.css') && readFileSync(join(assets, f), 'utf8').includes('.roadmap-track'));
  return {
    files,
    gzipBytes: files.reduce((n, f) => n + f.gzipBytes, 0),
    cssGzipBytes: siteCss.reduce((n, f) => n + gzipSync(readFileSync(join(assets, f))).length, 0),
    forbidden: [...new Set([...seen].flatMap((f) => sourcesOf(f).filter((s) => forbiddenSources.test(s))))],
  };
};
