/**
 * `npm run lighthouse`: builds the app, serves dist/, and runs Lighthouse (the npm package driving
 * Debian's Chromium) on the landing page, mobile and desktop. The median of LIGHTHOUSE_RUNS runs
 * (default 3) goes into bench/RESULTS.md. Target: ≥ 95 in all four categories (issue 7).
 *
 * LIGHTHOUSE_URL=http://127.0.0.1:3000/ measures a server that is already running (the real one,
 * with its headers and config block) instead of building and serving dist/ here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launch } from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import { chromiumArgs, chromiumPath } from '../vite.config.ts';
import { apiPrefix } from '../engine/api-types.ts';
import { writeSection } from './results.ts';

const root = new URL('..', import.meta.url).pathname;
const dist = process.env.LIGHTHOUSE_DIST ?? join(root, 'dist');
const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3);

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
export const serveDist = (dir: string = dist): Promise<Server> => {
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

type Scores = Record<(typeof categories)[number], number>;

let lighthouseVersion = '';

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const measure = async (url: string, port: number, formFactor: 'mobile' | 'desktop'): Promise<Scores & { lcpMs: number; tbtMs: number }> => {
  const results: (Scores & { lcpMs: number; tbtMs: number })[] = [];
  for (let i = 0; i < runs; i++) {
    const result = await lighthouse(
      url,
      { port, output: 'json', logLevel: 'error', onlyCategories: [...categories] },
      formFactor === 'desktop' ? desktopConfig : undefined,
    );
    if (!result) throw new Error('Lighthouse returned no result');
    const { lhr } = result;
    lighthouseVersion = lhr.lighthouseVersion;
    if (process.env.LIGHTHOUSE_REPORT_DIR) {
      writeFileSync(join(process.env.LIGHTHOUSE_REPORT_DIR, `lighthouse-${formFactor}-${i + 1}.json`), JSON.stringify(lhr));
    }
    const score = (c: string): number => Math.round((lhr.categories[c]?.score ?? 0) * 100);
    results.push({
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
      seo: score('seo'),
      lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0),
      tbtMs: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? 0),
    });
    const failing = Object.values(lhr.audits).filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative');
    if (failing.length) console.log(`  ${formFactor} run ${i + 1} below 0.9: ${failing.map((a) => a.id).join(', ')}`);
  }
  const pick = (k: keyof (typeof results)[number]): number => median(results.map((r) => r[k]));
  return {
    performance: pick('performance'),
    accessibility: pick('accessibility'),
    'best-practices': pick('best-practices'),
    seo: pick('seo'),
    lcpMs: pick('lcpMs'),
    tbtMs: pick('tbtMs'),
  };
};

const main = async (): Promise<void> => {
  let server: Server | undefined;
  let url = process.env.LIGHTHOUSE_URL;
  if (!url) {
    if (!process.env.LIGHTHOUSE_SKIP_BUILD) execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
    server = await serveDist();
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  }
  const chrome = await launch({
    chromePath: chromiumPath,
    chromeFlags: ['--headless=new', ...chromiumArgs],
  });
  try {
    const rows: string[] = [];
    for (const formFactor of ['mobile', 'desktop'] as const) {
      const s = await measure(url, chrome.port, formFactor);
      console.log(formFactor, s);
      rows.push(`| ${formFactor} | ${s.performance} | ${s.accessibility} | ${s['best-practices']} | ${s.seo} | ${s.lcpMs} | ${s.tbtMs} |`);
    }
    writeSection(
      'lighthouse',
      [
        '## Lighthouse: public landing page (`npm run lighthouse`)',
        '',
        `Lighthouse ${lighthouseVersion} driving ${chromiumPath}, median of ${runs} runs, ${process.env.LIGHTHOUSE_URL ? `server at ${url}` : 'built dist/ served with gzip by bench/lighthouse.ts'}. Target ≥ 95 everywhere.`,
        '',
        '| Form factor | Performance | Accessibility | Best practices | SEO | LCP ms | TBT ms |',
        '|---|---|---|---|---|---|---|',
        ...rows,
      ].join('\n'),
    );
  } finally {
    chrome.kill();
    server?.close();
  }
};

if (import.meta.url === `file://${process.argv[1]}`) await main();
