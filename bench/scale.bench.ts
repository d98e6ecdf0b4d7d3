/**
 * `npm run bench:scale [-- --players N] [--private-cluster] [--replica]`: every call a player
 * makes, at 10,000 players and at N (`--players`, else BENCH_PLAYERS, else 1,000,000), with and
 * without Redis, and every job that grows with players. For each size it creates a fresh
 * PostgreSQL database, seeds it (bench/scale-seed.ts: parallel, indexes after the load), times the
 * jobs alone (bench/scale-jobs.ts), starts the real server (`server/main.ts`) and drives each call
 * with 16 requests in flight (autocannon), then writes to bench/RESULTS.md (bench/scale-report.ts):
 * p50/p99, requests/s and CPU per request; the jobs' times and their share of a core while the
 * server runs (money_job_duration_seconds from /metrics); how long a MONEY change takes to show in
 * the player's own rank; storage per player; rows and WAL bytes per click batch; dead tuples before
 * and after the run. Each size's figures are kept in the section (a JSON comment), so a run at one
 * size leaves the others' beside it.
 *
 * The database is on the shared server at 127.0.0.1:5432 (BENCH_PG_ADMIN_URL), or with
 * `--private-cluster` on a private primary the bench initdb's for the run, configured by `include`
 * of ops/postgresql-primary.conf (the settings of a 10M primary; bench/scale-cluster.ts) and
 * removed at the end. `--replica` (implies --private-cluster) also base-backs that primary up into
 * a streaming replica after the seed and adds a third run, "+ replica": the same server with
 * DATABASE_REPLICA_URL set, each cluster's PostgreSQL CPU per request measured apart.
 * `--bulk-import` (with --private-cluster) measures instead players arriving at once: inserted with
 * plain SQL, every one marked, the calls driven from the first second while the ranks job catches
 * up (bench/scale-import.ts; its own section of bench/RESULTS.md).
 * Run it under `flock /tmp/money-bench.lock` (the npm script does) on a quiet machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { apiPrefix, type LeaderboardEntry, type Page } from '../engine/wire/api-types.ts';
import { loadConfig } from '../server/background/settings.ts';
import { openDb, type Db } from '../server/core/db/db.ts';
import { openRedis } from '../server/core/redis.ts';
import { ranksVersionKey } from '../server/leaderboard/redis-ranks.ts';
import { signInitData } from '../server/players/init-data.ts';
import { autocannon, postgresCpuMs, processCpuMs, type AutocannonResult } from './load.ts';
import { anyPlayer, calls_, durationS, hotTables, inFlight, type Call, type Measured, type Mode, type SizeResult } from './scale-calls.ts';
import { startPrivateCluster, type PrivateCluster } from './scale-cluster.ts';
import { deadTuples, storageBytes, timeJobs, walLsn, walSince, writesSoFar } from './scale-jobs.ts';
import { report } from './scale-report.ts';
import { measureImport, reportImport } from './scale-import.ts';
import { seedPlayers } from './scale-seed.ts';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const adminUrl = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const port = Number(process.env.BENCH_PORT ?? 3011);
const argPlayers = (() => {
  const i = process.argv.indexOf('--players');
  if (i < 0) return undefined;
  const n = Number(process.argv[i + 1]);
  if (!Number.isSafeInteger(n) || n < 1_000) throw new Error('--players takes a whole number of at least 1,000');
  return n;
})();
// --only: that size alone (the section keeps the other sizes' last figures).
const sizes = [...new Set([...(process.argv.includes('--only') ? [] : [10_000]), argPlayers ?? Number(process.env.BENCH_PLAYERS ?? 1_000_000)])].sort((a, b) => a - b);
const seedWorkers = Number(process.env.BENCH_SEED_WORKERS ?? Math.max(1, Math.min(4, cpus().length)));
const botToken = `7000000011:${randomBytes(27).toString('base64url')}`;
const metricsToken = randomBytes(24).toString('hex');
const withReplica = process.argv.includes('--replica');
const privateCluster = withReplica || process.argv.includes('--private-cluster');

const authCache = new Map<number, string>();
const authOf = (id: number): string => {
  let a = authCache.get(id);
  if (a === undefined) {
    a = `tma ${signInitData(botToken, { user: { id, first_name: 'P', username: `p${id}` } })}`;
    authCache.set(id, a);
  }
  return a;
};

/** Each private cluster's CPU ms so far, by cluster (none on the shared server). */
type ClusterCpu = { primary?: () => number; replica?: () => number };

const drive = async (call: Call, players: number, serverPid: number, clusterCpu: ClusterCpu): Promise<Measured> => {
  let n = 0;
  const load = (limit: Record<string, number>) =>
    autocannon({
      url: `http://127.0.0.1:${port}`,
      connections: inFlight,
      ...limit,
      requests: [
        {
          method: call.method,
          setupRequest: (req: Record<string, unknown>) => {
            const i = n++;
            const who = (call.player ?? anyPlayer)(i, players);
            return {
              ...req,
              path: `${apiPrefix}${call.path(i, players)}`,
              headers: { ...(call.auth ? { authorization: authOf(who) } : {}), ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}) },
              ...(call.body !== undefined ? { body: call.body(i) } : {}),
            };
          },
        },
      ],
    });
  await load({ amount: 400 });
  const api0 = processCpuMs(serverPid);
  const pg0 = postgresCpuMs();
  const primary0 = clusterCpu.primary?.();
  const replica0 = clusterCpu.replica?.();
  const r: AutocannonResult = await load({ duration: durationS });
  const total = Math.max(1, r.requests.total);
  return {
    p50: r.latency.p50,
    p99: r.latency.p99,
    rps: r.requests.average,
    bad: r.non2xx + r.errors + r.timeouts,
    shed: r.statusCodeStats?.['503']?.count ?? 0,
    total: r.requests.total + 400,
    apiCpuMsPerReq: (processCpuMs(serverPid) - api0) / total,
    pgCpuMsPerReq: (postgresCpuMs() - pg0) / total,
    ...(primary0 !== undefined ? { primaryCpuMsPerReq: (clusterCpu.primary!() - primary0) / total } : {}),
    ...(replica0 !== undefined ? { replicaCpuMsPerReq: (clusterCpu.replica!() - replica0) / total } : {}),
  };
};

/** The server on `dbUrl`; with Redis under `redisPrefix`, with its social reads on `replicaUrl`. */
const startServer = async (dbUrl: string, redisPrefix: string | null, replicaUrl: string | null): Promise<ChildProcess> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'money-scale-'));
  writeFileSync(join(dataDir, 'dev-bot-token'), `${botToken}\n`);
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'development',
      DATABASE_URL: dbUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SKIP_CLIENT_BUILD: process.env.BENCH_SKIP_CLIENT_BUILD ?? '0',
      METRICS_TOKEN: metricsToken,
      ...(redisPrefix !== null ? { REDIS_URL: redisUrl, REDIS_PREFIX: redisPrefix } : {}),
      ...(replicaUrl !== null ? { DATABASE_REPLICA_URL: replicaUrl } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  for (let i = 0; i < 600; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
    if (ok) return child;
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the server did not start in 5 minutes');
};

const stopServer = async (child: ChildProcess) => {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
};

/** Waits until the ranked view holds every player and, with Redis, the sorted set holds the view's version. */
const waitForRanks = async (db: Db, players: number, redisPrefix: string | null) => {
  const redis = redisPrefix !== null ? openRedis(redisUrl, { prefix: redisPrefix }) : null;
  try {
    for (let i = 0; i < 1_200; i++) {
      const meta = (await db.query<{ total: number; version: number }>('SELECT total, version FROM rank_meta WHERE id = 1')).rows[0]!;
      const held = redis === null ? meta.version : redis.ready() ? await redis.client.get(ranksVersionKey(redis)) : null;
      if (Number(meta.total) === players && Number(held) === Number(meta.version)) return;
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error('the ranks did not settle in 10 minutes');
  } finally {
    await redis?.close();
  }
};

const metricsText = (): Promise<string> =>
  fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } }).then((r) => (r.ok ? r.text() : ''));

/** money_job_duration_seconds_sum by job, from the server's /metrics. */
const jobSeconds = async (): Promise<Record<string, number>> => {
  const out: Record<string, number> = {};
  for (const m of (await metricsText()).matchAll(/^money_job_duration_seconds_sum\{[^}]*name="([^"]+)"[^}]*\} (\S+)$/gm)) out[m[1]!] = (out[m[1]!] ?? 0) + Number(m[2]);
  return out;
};

/** A metric's value summed over its labels, from the server's /metrics. */
const metricSum = async (name: string): Promise<number> => {
  let sum = 0;
  for (const m of (await metricsText()).matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'gm'))) sum += Number(m[1]);
  return sum;
};

/** Waits until the server's social reads are on the replica (its check runs every REPLICA_CHECK_MS). */
const waitForReplicaReads = async () => {
  for (let i = 0; i < 600; i++) {
    if ((await metricSum('money_db_replica_in_use')) === 1) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not put its social reads on the replica in a minute');
};

/** From a MONEY change committed to the player's own rank showing it (the ranks job's tick, and with Redis its mirror). */
const rankStaleness = async (db: Db, players: number, salt: number): Promise<number> => {
  // A player from the middle of the table moves to the top: rank 1 once the change shows.
  const id = anyPlayer(424_242 + salt, players);
  await db.transaction(async (tx) => {
    const r = await tx.query<{ a: string }>('SELECT ((SELECT max(total_money) FROM users) + 1 - total_money)::text AS a FROM users WHERE id = $1', [id]);
    await tx.query("INSERT INTO ledger (user_id, currency, amount, kind, reference, created_at_ms) VALUES ($1, 'MONEY', $2, 'task', 'bench', $3)", [id, r.rows[0]!.a, Date.now()]);
    await tx.query('UPDATE users SET total_money = total_money + $2::numeric WHERE id = $1', [id, r.rows[0]!.a]);
  });
  const t0 = performance.now();
  const want = 1;
  for (;;) {
    const r = await fetch(`http://127.0.0.1:${port}${apiPrefix}/leaderboard`, { headers: { authorization: authOf(id) } });
    const own = ((await r.json()) as Page<LeaderboardEntry>).items[0]!;
    if (own.rank === want) return performance.now() - t0;
    if (performance.now() - t0 > 300_000) return Number.POSITIVE_INFINITY;
    await new Promise((r) => setTimeout(r, 50));
  }
};

const measureSize = async (players: number, cluster: PrivateCluster | undefined): Promise<SizeResult> => {
  const name = `money_scale_${process.pid}_${players}`;
  const admin = new pg.Client({ connectionString: cluster?.primaryUrl('postgres') ?? adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  const dbUrl = cluster?.primaryUrl(name) ?? adminUrl.replace(/\/[^/]*$/, `/${name}`);
  // Seeding millions of rows takes longer than a request's 5 s statement bound.
  const db = await openDb(loadConfig({ DATABASE_URL: dbUrl }), { queryTimeoutMs: 0 });
  try {
    const load0 = loadavg()[0]!;
    console.log(`${players.toLocaleString('en')} players: seeding with ${seedWorkers} workers…`);
    const seed = await seedPlayers(db, players, Date.now(), seedWorkers);
    const seeded = seed.usersMs + seed.referralsMs + seed.ledgerMs + seed.walletsMs + seed.remindersMs + seed.indexesMs;
    console.log(`  seeded in ${(seeded / 1000).toFixed(1)} s (+ vacuum ${(seed.vacuumMs / 1000).toFixed(1)} s, ranked view ${(seed.rankBuildMs / 1000).toFixed(1)} s, counters ${(seed.countersMs / 1000).toFixed(1)} s)`);
    const jobs = await timeJobs(db, players, redisUrl);
    console.log(`  jobs: ${JSON.stringify(jobs)}`);
    // With autovacuum off (a shared development cluster), the job timings' updates would leave the
    // visibility map cleared and every index-only read fetching rows: vacuum as autovacuum would.
    const settings = (await db.query<{ on: boolean; buffers: string }>("SELECT current_setting('autovacuum') = 'on' AS on, current_setting('shared_buffers') AS buffers")).rows[0]!;
    const autovacuum = settings.on;
    if (!autovacuum) await db.exec('VACUUM ANALYZE users, ledger, rank_entries, rank_blocks, rank_dirty, stats_deltas');
    const bytes = await storageBytes(db, players);
    const runs = {} as SizeResult['runs'];
    let rowsPerClick = 0;
    let walPerClick = 0;
    if (withReplica) {
      console.log('  base backup of the primary into a streaming replica…');
      await cluster!.startReplica();
      console.log('  the replica has replayed the seed');
    }
    const clusterCpu: ClusterCpu = { ...(cluster !== undefined ? { primary: cluster.primaryCpuMs } : {}), ...(withReplica ? { replica: cluster!.replicaCpuMs } : {}) };
    const dead0 = await deadTuples(db);
    const modes: Mode[] = withReplica ? ['postgres', 'redis', 'replica'] : ['postgres', 'redis'];
    for (const [salt, mode] of modes.entries()) {
      const prefix = mode === 'redis' ? `money-bench:${process.pid}:${players}:` : null;
      const server = await startServer(dbUrl, prefix, mode === 'replica' ? cluster!.replicaUrl(name) : null);
      try {
        await waitForRanks(db, players, prefix);
        if (mode === 'replica') await waitForReplicaReads();
        const fallbacks0 = await metricSum('money_db_replica_fallbacks_total');
        const jobs0 = await jobSeconds();
        const wall0 = performance.now();
        const calls: Record<string, Measured> = {};
        for (const call of calls_) {
          const w0 = call.method === 'POST' ? await writesSoFar(db) : 0;
          const l0 = call.method === 'POST' ? await walLsn(db) : '0/0';
          const m = await drive(call, players, server.pid!, clusterCpu);
          if (call.method === 'POST' && mode === 'postgres') {
            await new Promise((r) => setTimeout(r, 1_500));
            rowsPerClick = ((await writesSoFar(db)) - w0) / m.total;
            walPerClick = (await walSince(db, l0)) / m.total;
          }
          calls[call.name] = m;
          console.log(`  ${mode} ${call.name}: p50 ${m.p50} ms, p99 ${m.p99} ms, ${Math.round(m.rps)}/s, ${m.bad} bad (${m.shed} shed)`);
        }
        const stalenessMs = await rankStaleness(db, players, salt);
        const jobs1 = await jobSeconds();
        const wallS = (performance.now() - wall0) / 1000;
        const jobShare = Object.fromEntries(Object.entries(jobs1).map(([job, s]) => [job, (s - (jobs0[job] ?? 0)) / wallS]));
        console.log(`  ${mode}: rank change visible after ${Math.round(stalenessMs)} ms; jobs' share of a core ${JSON.stringify(jobShare)}`);
        const replicaFallbacks = (await metricSum('money_db_replica_fallbacks_total')) - fallbacks0;
        if (mode === 'replica' && replicaFallbacks > 0) console.log(`  replica: the social reads fell back to the primary ${replicaFallbacks} time(s)`);
        runs[mode] = { calls, jobShare, stalenessMs, ...(mode === 'replica' ? { replicaFallbacks } : {}) };
      } finally {
        await stopServer(server);
      }
      if (prefix !== null) {
        const r = openRedis(redisUrl, { prefix });
        await r.waitReady(5_000);
        // UNLINK: Redis frees a sorted set of millions in the background; DEL would block it past the command timeout.
        await r.client.unlink(`${prefix}ranks`, ranksVersionKey(r));
        await r.close();
      }
    }
    const dead1 = await deadTuples(db);
    const vacuum = Object.fromEntries(hotTables.map((t) => [t, { before: dead0[t]?.dead ?? 0, after: dead1[t]?.dead ?? 0, runs: (dead1[t]?.runs ?? 0) - (dead0[t]?.runs ?? 0) }]));
    return { players, measuredAt: new Date().toISOString(), seed, jobs, bytes, rowsPerClick, walPerClick, vacuum, runs, autovacuum, privateCluster, sharedBuffers: settings.buffers, load: [load0, loadavg()[0]!], cores: cpus().length };
  } finally {
    cluster?.removeReplica();
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
};

/** `--bulk-import` (bench/scale-import.ts): players arriving at once, the calls from the first second of the catch-up. */
const mainImport = async () => {
  if (!privateCluster) throw new Error('--bulk-import measures on the private primary: add --private-cluster');
  const players = sizes.at(-1)!;
  const cluster = await startPrivateCluster();
  const name = `money_import_${process.pid}_${players}`;
  const admin = new pg.Client({ connectionString: cluster.primaryUrl('postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const dbUrl = cluster.primaryUrl(name);
  const db = await openDb(loadConfig({ DATABASE_URL: dbUrl }), { queryTimeoutMs: 0 });
  try {
    const result = await measureImport(db, players, {
      port,
      authOf,
      metricsText,
      seedWorkers,
      startServer: async () => {
        const server = await startServer(dbUrl, null, null);
        return { stop: () => stopServer(server) };
      },
    });
    reportImport(result, () => readFileSync(new URL('./RESULTS.md', import.meta.url), 'utf8'));
    console.log('bench/RESULTS.md: scale-import section written.');
  } finally {
    await db.close();
    await admin.end();
    cluster.destroy();
  }
};

const main = async () => {
  if (process.argv.includes('--bulk-import')) return mainImport();
  const cluster = privateCluster ? await startPrivateCluster() : undefined;
  if (cluster !== undefined) console.log(`private primary (ops/postgresql-primary.conf) at ${cluster.primaryUrl('postgres')}`);
  try {
    const results: SizeResult[] = [];
    for (const players of sizes) results.push(await measureSize(players, cluster));
    report(results);
    console.log('bench/RESULTS.md: scale section written.');
  } finally {
    cluster?.destroy();
  }
};

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
