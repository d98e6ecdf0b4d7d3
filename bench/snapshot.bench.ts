/**
 * `npm run bench:snapshot [-- N]`: the airdrop at scale (docs/airdrop.md). Seeds N players
 * (default 1,000,000) with a linked wallet and MONEY into a fresh PGlite in a temp DATA_DIR (or
 * the PostgreSQL of DATABASE_URL, in a fresh schema), then measures:
 * - the snapshot: freeze + dictionary build + BoC stored (target ≤ 120 s, peak RSS ≤ 4 GB);
 * - a second process's load of the stored dictionary;
 * - TEP-176 proof answers through the real route (inject, one at a time; target p99 ≤ 50 ms).
 * Run it under `flock /tmp/money-bench.lock` on a shared machine. Writes the `snapshot` section.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { apiPrefix } from '../engine/wire/api-types.ts';
import { takeSnapshot } from '../server/airdrop/snapshot.ts';
import { createApp } from '../server/app.ts';
import { loadConfig } from '../server/background/settings.ts';
import { openDb } from '../server/core/db/db.ts';
import { writeSection } from './results.ts';

const n = Number(process.argv[2] ?? 1_000_000);
const proofs = 2_000;
const dataDir = mkdtempSync(join(tmpdir(), 'money-snapshot-'));
const usePg = process.env.DATABASE_URL !== undefined;
const config = loadConfig({ NODE_ENV: 'test', BOT_TOKEN: '7000000001:AAbenchTOKENbenchTOKENbench_abc', DATA_DIR: dataDir, ...(usePg ? { DATABASE_URL: process.env.DATABASE_URL } : {}) });
const db = await openDb(config, usePg ? { schema: `t_bench_${randomBytes(4).toString('hex')}` } : {});
const s = (ms: number) => (ms / 1000).toFixed(1);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' / ');

try {
  const loadBefore = load();
  let t = performance.now();
  // Players 1..n: MONEY between 0.01 and 100,000; every one with a basechain wallet (sha256 of the id as the hash).
  for (let from = 1; from <= n; from += 250_000) {
    const to = Math.min(n, from + 249_999);
    await db.query(
      `INSERT INTO users (id, refcode, total_money, energy_at_ms, tap_clock_ms, last_claimed_ms, created_at_ms)
       SELECT i, 'r' || i, ((i * 7919) % 10000000 + 1) / 100.0, 0, 0, 0, 0 FROM generate_series($1::bigint, $2::bigint) i`,
      [from, to],
    );
    await db.query(
      `INSERT INTO ton_wallets (user_id, address, public_key, wallet_version, linked_at_ms)
       SELECT i, '0:' || encode(sha256(int8send(i)), 'hex'), '', 'v4R2', 0 FROM generate_series($1::bigint, $2::bigint) i`,
      [from, to],
    );
  }
  const seedS = s(performance.now() - t);
  console.log(`seeded ${n} players in ${seedS} s`);

  t = performance.now();
  const phases: string[] = [];
  let last = t;
  const phase = (name: string) => {
    const now = performance.now();
    phases.push(`${name} ${s(now - last)} s`);
    last = now;
  };
  const { summary } = await takeSnapshot(db, { round: 1, startFrom: 1_768_000_000, expireAt: 1_800_000_000 }, Date.now(), phase);
  const buildMs = performance.now() - t;
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  const loadAfterBuild = load();
  console.log(phases.join(', '));
  console.log(`snapshot ${s(buildMs)} s, peak RSS ${peakRssMb.toFixed(0)} MB, root ${summary.merkleRoot}`);

  // A fresh app: its first claim call starts loading the stored BoC (503 until ready).
  const app = await createApp({ db, config });
  const addresses = (await db.query<{ address: string }>(`SELECT address FROM ton_wallets ORDER BY user_id % 9973, user_id LIMIT ${proofs}`)).rows.map((r) => r.address);
  t = performance.now();
  let first = await app.inject({ url: `${apiPrefix}/jetton/wallet/${addresses[0]}` });
  while (first.statusCode === 503) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    first = await app.inject({ url: `${apiPrefix}/jetton/wallet/${addresses[0]}` });
  }
  const loadMs = performance.now() - t;
  if (first.statusCode !== 200) throw new Error(`claim answered ${first.statusCode}: ${first.body}`);
  const times: number[] = [];
  for (const address of addresses) {
    const t0 = performance.now();
    const r = await app.inject({ url: `${apiPrefix}/jetton/wallet/${address}` });
    times.push(performance.now() - t0);
    if (r.statusCode !== 200) throw new Error(`claim answered ${r.statusCode}`);
  }
  const miss = performance.now();
  const notFound = await app.inject({ url: `${apiPrefix}/jetton/wallet/0:${'0'.repeat(64)}` });
  const missMs = performance.now() - miss;
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!.toFixed(2);
  const peakRss2 = process.resourceUsage().maxRSS / 1024;
  await app.close();
  console.log(`load ${s(loadMs)} s; proofs p50 ${pct(50)} ms p99 ${pct(99)} ms max ${pct(100)} ms; 404 in ${missMs.toFixed(2)} ms (${notFound.statusCode})`);

  writeSection(
    'snapshot',
    `## Airdrop snapshot at scale (\`npm run bench:snapshot\`)

${n.toLocaleString('en-US')} players, each with a linked wallet and MONEY above 0, on ${usePg ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite (temp DATA_DIR)'}; one process (server/airdrop/snapshot.ts through the real route for proofs). Load average (1/5/15 min) before: ${loadBefore}; after the build: ${loadAfterBuild} (2 shared cores).

| Step | Result | Target |
|---|---|---|
| Seed players + wallets (setup, not counted) | ${seedS} s | — |
| Snapshot: freeze allocations, build the TEP-177 dictionary, store BoC (${((summary.bocBytes ?? 0) / 1e6).toFixed(1)} MB) and root | **${s(buildMs)} s** (${phases.join('; ')}) | ≤ 120 s |
| Peak RSS of the process during the snapshot | **${(peakRssMb / 1024).toFixed(2)} GB** | ≤ 4 GB |
| A second process loads the stored BoC (first claim answers 503 until then) | ${s(loadMs)} s | — |
| Proof answer (GET /jetton/wallet/:address, ${proofs} addresses, one at a time) | p50 ${pct(50)} ms, **p99 ${pct(99)} ms**, max ${pct(100)} ms | p99 ≤ 50 ms |
| Address outside the snapshot (404) | ${missMs.toFixed(2)} ms | — |
| Peak RSS at the end (snapshot + loaded copy + app) | ${(peakRss2 / 1024).toFixed(2)} GB | — |

Merkle root: \`${summary.merkleRoot}\`.`,
  );
} finally {
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
}
