/**
 * `npm run bench -- launch`: how fast `npm start` gets going and stops, and how fast the web layer
 * serves the document and the hashed assets. Runs the real server/main.ts (as the e2e tests do)
 * on PGlite in a temporary DATA_DIR; writes the "launch" section of bench/RESULTS.md.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pgliteTemplateFile } from '../server/core/db/pglite-template.ts';
import { removeDir, startServer, tempDataDir } from '../tests/e2e/harness.ts';
import { writeSection } from './results.ts';

// autocannon ships no types; the few fields read here.
type Autocannon = (opts: Record<string, unknown>) => Promise<{ requests: { average: number }; latency: { p99: number }; errors: number; non2xx: number }>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const root = fileURLToPath(new URL('../', import.meta.url));
const ms = (from: number) => Math.round(performance.now() - from);

const loadAtStart = loadavg()[0]!.toFixed(1);
const buildStarted = performance.now();
const build = spawnSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) throw new Error('vite build failed');
const buildMs = ms(buildStarted);

const dataDir = tempDataDir();
const env = { SKIP_CLIENT_BUILD: '1', NODE_ENV: 'development' };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
try {
  // The first start of this installation: no initdb template yet, so PGlite runs initdb (and saves one).
  rmSync(pgliteTemplateFile(), { recursive: true, force: true });
  const firstDir = tempDataDir();
  let t = performance.now();
  const first = await startServer({ dataDir: firstDir, env });
  const firstMs = ms(t);
  await first.stop('SIGTERM');
  removeDir(firstDir);

  t = performance.now();
  const cold = await startServer({ dataDir, env });
  const coldMs = ms(t);
  t = performance.now();
  await cold.stop('SIGTERM');
  const idleStopMs = ms(t);

  // Warm starts vary most with the machine's load: the median of three.
  const warmRuns: number[] = [];
  for (let i = 0; i < 2; i++) {
    t = performance.now();
    const again = await startServer({ dataDir, env });
    warmRuns.push(ms(t));
    await again.stop('SIGTERM');
  }
  t = performance.now();
  const server = await startServer({ dataDir, env });
  warmRuns.push(ms(t));
  const warmMs = median(warmRuns);

  const assets = readdirSync(join(root, 'dist/assets')).filter((f) => f.endsWith('.js'));
  const biggest = assets.sort((a, b) => statSync(join(root, 'dist/assets', b)).size - statSync(join(root, 'dist/assets', a)).size)[0];
  const load = async (path: string) => {
    const r = await autocannon({ url: `${server.base}${path}`, connections: 20, duration: 8, headers: { 'accept-encoding': 'br, gzip' } });
    return { rps: Math.round(r.requests.average), p99: r.latency.p99, errors: r.errors + r.non2xx };
  };
  const doc = await load('/');
  const asset = await load(`/assets/${biggest}`);
  const sizes = async (path: string) => {
    const raw = await fetch(`${server.base}${path}`, { headers: { 'accept-encoding': 'identity' } });
    const br = await fetch(`${server.base}${path}`, { headers: { 'accept-encoding': 'br' } });
    // fetch decodes br, so read the encoded length from the header Node's fetch leaves alone.
    return { raw: (await raw.arrayBuffer()).byteLength, br: Number(br.headers.get('content-length') ?? 0) };
  };
  const assetSize = await sizes(`/assets/${biggest}`);
  t = performance.now();
  await server.stop('SIGTERM');
  const stopMs = ms(t);

  const table = [
    '## Launch and the web layer (`npm run bench -- launch`)',
    '',
    `The real \`server/main.ts\` on PGlite in a temporary \`DATA_DIR\`, \`dist/\` prebuilt. Load average at the start: ${loadAtStart} (2 cores, shared). Targets: warm start ≤ 3 s, cold start ≤ 6 s.`,
    '',
    '| what | measured |',
    '|---|---|',
    `| \`vite build\` of the client | ${buildMs} ms |`,
    `| first start of the installation (new DATA_DIR, no template: initdb and migrations run) to listening | ${firstMs} ms |`,
    `| cold start (new DATA_DIR copied from the migrated template, seed) to listening | ${coldMs} ms |`,
    `| warm start (same DATA_DIR) to listening, median of ${warmRuns.join(' / ')} | ${warmMs} ms |`,
    `| SIGTERM to exit, idle | ${idleStopMs} ms |`,
    `| SIGTERM to exit after the load below | ${stopMs} ms |`,
    `| GET / (document with config block), 20 connections | ${doc.rps} req/s, p99 ${doc.p99} ms, ${doc.errors} errors |`,
    `| GET /assets/${biggest} (brotli), 20 connections | ${asset.rps} req/s, p99 ${asset.p99} ms, ${asset.errors} errors |`,
    `| ${biggest}: raw / brotli bytes | ${assetSize.raw} / ${assetSize.br} |`,
  ].join('\n');
  console.log(table);
  writeSection('launch', table);
} finally {
  removeDir(dataDir);
}
