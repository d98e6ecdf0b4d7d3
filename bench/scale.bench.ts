/**
 * `npm run bench:scale [-- --players N]`: every call a player makes, at 10,000 players and at N
 * (`--players`, else BENCH_PLAYERS, else 1,000,000), with and without Redis, and every job that
 * grows with players. For each size it creates a fresh PostgreSQL database on 127.0.0.1:5432,
 * seeds it (bench/scale-seed.ts: parallel, indexes after the load), times the jobs alone, starts
 * the real server (`server/main.ts`) and drives each call with 16 requests in flight (autocannon),
 * then writes to bench/RESULTS.md: p50/p99, requests/s and CPU per request; the jobs' times and
 * their share of a core while the server runs (money_job_duration_seconds from /metrics); how
 * long a MONEY change takes to show in the player's own rank; storage per player; rows and WAL
 * bytes per click batch; dead tuples before and after the run. Each size's figures are kept in the
 * section (a JSON comment), so a run at one size leaves the others' beside it.
 * Run it under `flock /tmp/money-bench.lock` (the npm script does) on a quiet machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { apiPrefix, type LeaderboardEntry, type Page } from '../engine/api-types.ts';
import { takeSnapshot } from '../server/airdrop/snapshot.ts';
import { rebuildConsoleCounters, refreshConsoleAggregates } from '../server/console/console-aggregates.ts';
import { loadConfig } from '../server/core/config/config.ts';
import { openDb, type Db } from '../server/core/db/db.ts';
import { openRedis } from '../server/core/redis.ts';
import { runReminders } from '../server/daily/reminders.ts';
import { integrityRulesOf, refreshIntegrity } from '../server/integrity/exports.ts';
import { applyPendingRanks } from '../server/leaderboard/rank-view.ts';
import { publishRanks, ranksVersionKey, syncRedisRanks } from '../server/leaderboard/redis-ranks.ts';
import { rebuildStatsCache, refreshStatsCache } from '../server/leaderboard/stats-cache.ts';
import { signInitData } from '../server/players/init-data.ts';
import { autocannon, postgresCpuMs, processCpuMs, type AutocannonResult } from './load.ts';
import { writeSection } from './results.ts';
import { firstId, linkedWallets, referrerId, seedPlayers, type SeedTimes } from './scale-seed.ts';

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
const sizes = [...new Set([10_000, argPlayers ?? Number(process.env.BENCH_PLAYERS ?? 1_000_000)])].sort((a, b) => a - b);
const durationS = Number(process.env.BENCH_DURATION_S ?? 8);
const seedWorkers = Number(process.env.BENCH_SEED_WORKERS ?? Math.max(1, Math.min(4, cpus().length)));
const inFlight = 16;
const botToken = `7000000011:${randomBytes(27).toString('base64url')}`;
const metricsToken = randomBytes(24).toString('hex');
/** The tables whose dead tuples are watched: the ones every click or claim writes. */
const hotTables = ['users', 'ledger', 'click_batches', 'stats_deltas', 'rank_entries', 'rank_dirty'];

interface Call {
  name: string;
  method: 'GET' | 'POST';
  auth: boolean;
  /** The path (after the API prefix) of request n. */
  path: (n: number, players: number) => string;
  body?: (n: number) => string;
  /** Which player sends request n. */
  player?: (n: number, players: number) => number;
}

// A deterministic spread of players over the whole table (Knuth's multiplicative hash).
const anyPlayer = (n: number, players: number): number => firstId + 1 + ((n * 2_654_435_761) % players);
const lastPage = (players: number) => Math.ceil(players / 10);

const calls_: Call[] = [
  { name: 'GET status', method: 'GET', auth: true, path: () => '' },
  { name: 'GET /leaderboard page 1 + own rank (any player)', method: 'GET', auth: true, path: () => '/leaderboard?page=1' },
  { name: 'GET /leaderboard page 5,000', method: 'GET', auth: true, path: () => '/leaderboard?page=5000' },
  { name: 'GET /leaderboard last page', method: 'GET', auth: true, path: (_, p) => `/leaderboard?page=${lastPage(p)}` },
  {
    name: 'GET /get-ref-users (20,000 friends, every page)',
    method: 'GET',
    auth: true,
    path: (n, p) => `/get-ref-users?page=${1 + (n % Math.ceil(Math.min(20_000, p - 1) / 10))}`,
    player: () => referrerId,
  },
  { name: 'GET /get-my-refLink', method: 'GET', auth: true, path: () => '/get-my-refLink' },
  { name: 'GET /tasks', method: 'GET', auth: true, path: () => '/tasks?type=SOCIAL' },
  { name: 'POST /click (3 taps)', method: 'POST', auth: true, path: () => '/click', body: (n) => `{"click":3,"batchId":"s${n}-${Date.now()}"}` },
  { name: 'GET /public/stats (no auth)', method: 'GET', auth: false, path: () => '/public/stats' },
];

interface Measured {
  p50: number;
  p99: number;
  rps: number;
  bad: number;
  /** Of the bad, the 503s of load shedding (the server refusing work while its event loop lags). */
  shed: number;
  total: number;
  apiCpuMsPerReq: number;
  pgCpuMsPerReq: number;
}

const authCache = new Map<number, string>();
const authOf = (id: number): string => {
  let a = authCache.get(id);
  if (a === undefined) {
    a = `tma ${signInitData(botToken, { user: { id, first_name: 'P', username: `p${id}` } })}`;
    authCache.set(id, a);
  }
  return a;
};

const drive = async (call: Call, players: number, serverPid: number): Promise<Measured> => {
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
  };
};

const startServer = async (dbUrl: string, redisPrefix: string | null): Promise<ChildProcess> => {
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

interface JobTimes {
  /** The ranks job applying the marks of 1,000 and of 10,000 MONEY changes. */
  rankApply1kMs: number;
  rankApply10kMs: number;
  redisPublishMs: number;
  redisCatchUp1kMs: number;
  statsFoldMs: number;
  statsRebuildMs: number;
  consoleMs: number;
  consoleRebuildMs: number;
  integrityMs: number | null;
  airdropMs: number | null;
  airdropWallets: number;
  /** The reminders job's run with 1,000 players due, and with 10,000 due (one run decides REMINDERS_BATCH of them). */
  reminders1kMs?: number;
  reminders10kMs?: number;
  remindersBatch?: number;
}

interface ServerRun {
  calls: Record<string, Measured>;
  /** Seconds of money_job_duration_seconds per second of the run, by job: its share of one core at most. */
  jobShare: Record<string, number>;
  /** From a MONEY change committed to the player's own rank showing it. */
  stalenessMs: number;
}

interface SizeResult {
  players: number;
  measuredAt: string;
  seed: SeedTimes;
  jobs: JobTimes;
  /** Bytes per player: each table with its indexes, and the indexes alone. */
  bytes: { users: number; ledger: number; referrals: number; ranks: number; indexes: number };
  rowsPerClick: number;
  walPerClick: number;
  vacuum: Record<string, { before: number; after: number; runs: number }>;
  runs: Record<'postgres' | 'redis', ServerRun>;
  /** The cluster's autovacuum setting: off, dead tuples are only what the run left, and the bench vacuums after its job timings. */
  autovacuum: boolean;
  /** The cluster's shared_buffers (ops/postgresql-primary.conf sets a 10M primary's). */
  sharedBuffers?: string;
  load: [number, number];
  cores: number;
}

const timedMs = async <T>(run: () => Promise<T>): Promise<[number, T]> => {
  const t = performance.now();
  const r = await run();
  return [performance.now() - t, r];
};

/** `count` players' MONEY raised (with their ledger rows), spread over the table: marks for the ranks job. */
const changeMoney = async (db: Db, players: number, count: number, salt: number, nowMs: number) => {
  await db.transaction(async (tx) => {
    await tx.query(
      `WITH p AS (SELECT DISTINCT $1::bigint + 1 + ((k::bigint * 2654435761 + $4::bigint) % $2::bigint) AS id FROM generate_series(1, $3::int) AS k),
       up AS (UPDATE users u SET total_money = u.total_money + 1 + (u.id % 7) FROM p WHERE u.id = p.id RETURNING u.id, 1 + (u.id % 7) AS a)
       INSERT INTO ledger (user_id, currency, amount, kind, reference, created_at_ms) SELECT id, 'MONEY', a, 'task', 'bench', $5::bigint FROM up`,
      [firstId, players, count, salt, nowMs],
    );
  });
};

const timeJobs = async (db: Db, players: number): Promise<JobTimes> => {
  const now = Date.now();
  await changeMoney(db, players, 1_000, 1, now);
  const [rankApply1kMs] = await timedMs(() => applyPendingRanks(db, now));
  await changeMoney(db, players, 10_000, 2, now);
  const [rankApply10kMs] = await timedMs(() => applyPendingRanks(db, now));
  const probe = openRedis(redisUrl, { prefix: `money-bench:${process.pid}:probe:` });
  let redisPublishMs = Number.NaN;
  let redisCatchUp1kMs = Number.NaN;
  try {
    if (await probe.waitReady(5_000)) {
      [redisPublishMs] = await timedMs(() => publishRanks(db, probe));
      await changeMoney(db, players, 1_000, 3, now);
      await applyPendingRanks(db, now);
      const [ms, sync] = await timedMs(() => syncRedisRanks(db, probe));
      if (sync.kind === 'catch-up') redisCatchUp1kMs = ms;
    }
  } catch (err) {
    console.error('  Redis timing failed:', err);
  } finally {
    await probe.client.del(`${probe.prefix}ranks`, ranksVersionKey(probe)).catch(() => {});
    await probe.close();
  }
  const [statsFoldMs] = await timedMs(() => refreshStatsCache(db, now));
  const [statsRebuildMs] = await timedMs(() => rebuildStatsCache(db, now));
  const [consoleMs] = await timedMs(() => refreshConsoleAggregates(db, now));
  const [consoleRebuildMs] = await timedMs(() => rebuildConsoleCounters(db, now));
  let integrityMs: number | null = null;
  try {
    [integrityMs] = await timedMs(() => refreshIntegrity(db, now, integrityRulesOf(loadConfig({ DATABASE_URL: adminUrl }))));
  } catch (err) {
    console.error('  integrity signals failed:', err);
  }
  // The reminders job: `due` players' moment set to now, then one run as the job runs it (docs/rules.md §15.4).
  const remindersBatch = loadConfig({ DATABASE_URL: adminUrl }).REMINDERS_BATCH;
  const reminderRun = async (due: number, salt: number) => {
    await db.query(
      `UPDATE daily_reminders SET remind_at_ms = $5::bigint - 1 WHERE user_id IN
         (SELECT DISTINCT $1::bigint + 1 + ((k::bigint * 2654435761 + $4::bigint) % $2::bigint) FROM generate_series(1, $3::int) AS k)`,
      [firstId, players, due, salt, now],
    );
    const [ms] = await timedMs(() => db.transaction((tx) => runReminders(tx, { batch: remindersBatch, miniAppUrl: 'https://example.org/app' }, now)));
    return ms;
  };
  const reminders1kMs = await reminderRun(1_000, 11);
  const reminders10kMs = await reminderRun(10_000, 12);
  // What the runs queued is not sent, and the players left due are due tomorrow: the server's own
  // jobs then find nothing due while the calls are measured (the bench has no Bot API).
  await db.query(`UPDATE broadcast_recipients SET status = 'failed', error = 'bench', done_at_ms = $1 WHERE status = 'pending'`, [now]);
  await db.query('UPDATE broadcasts SET finished_at_ms = $1 WHERE finished_at_ms IS NULL', [now]);
  await db.query('UPDATE daily_reminders SET remind_at_ms = $1::bigint + 86400000 WHERE remind_at_ms <= $1', [now]);
  let airdropMs: number | null = null;
  let airdropWallets = 0;
  try {
    const startFrom = Math.floor(now / 1000) + 3_600;
    const [ms, r] = await timedMs(() => takeSnapshot(db, { round: 1, startFrom, expireAt: startFrom + 30 * 86_400 }, now));
    airdropMs = ms;
    airdropWallets = r.summary.wallets;
  } catch (err) {
    console.error('  airdrop snapshot failed:', err);
  }
  return { rankApply1kMs, rankApply10kMs, redisPublishMs, redisCatchUp1kMs, statsFoldMs, statsRebuildMs, consoleMs, consoleRebuildMs, integrityMs, airdropMs, airdropWallets, reminders1kMs, reminders10kMs, remindersBatch };
};

const storageBytes = async (db: Db, players: number) => {
  const r = await db.query<{ t: string; total: string; idx: string }>(
    `SELECT t, pg_total_relation_size(t)::bigint::text AS total, pg_indexes_size(t)::bigint::text AS idx
     FROM unnest(ARRAY['users', 'ledger', 'referrals', 'rank_entries', 'rank_blocks']) AS t`,
  );
  const by = Object.fromEntries(r.rows.map((x) => [x.t, { total: Number(x.total), idx: Number(x.idx) }]));
  const per = (b: number) => Math.round(b / players);
  return {
    users: per(by.users!.total),
    ledger: per(by.ledger!.total),
    referrals: per(by.referrals!.total),
    ranks: per(by.rank_entries!.total + by.rank_blocks!.total),
    indexes: per(by.users!.idx + by.ledger!.idx + by.referrals!.idx + by.rank_entries!.idx + by.rank_blocks!.idx),
  };
};

const writesSoFar = async (db: Db): Promise<number> => {
  await db.query('SELECT pg_stat_clear_snapshot()');
  const r = await db.query<{ w: number }>(
    "SELECT COALESCE(sum(n_tup_ins + n_tup_upd + n_tup_del), 0)::bigint AS w FROM pg_stat_user_tables WHERE relname NOT IN ('rank_entries', 'rank_blocks', 'rank_meta', 'rank_dirty')",
  );
  return Number(r.rows[0]!.w);
};

const walLsn = async (db: Db): Promise<string> => (await db.query<{ l: string }>('SELECT pg_current_wal_lsn()::text AS l')).rows[0]!.l;
const walSince = async (db: Db, from: string): Promise<number> =>
  Number((await db.query<{ b: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::bigint::text AS b', [from])).rows[0]!.b);

const deadTuples = async (db: Db) => {
  await db.query('SELECT pg_stat_clear_snapshot()');
  const r = await db.query<{ relname: string; dead: number; runs: number }>(
    'SELECT relname, n_dead_tup::bigint AS dead, autovacuum_count::bigint AS runs FROM pg_stat_user_tables WHERE relname = ANY($1::text[])',
    [hotTables],
  );
  return Object.fromEntries(r.rows.map((x) => [x.relname, { dead: Number(x.dead), runs: Number(x.runs) }]));
};

/** money_job_duration_seconds_sum by job, from the server's /metrics. */
const jobSeconds = async (): Promise<Record<string, number>> => {
  const text = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } }).then((r) => (r.ok ? r.text() : ''));
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^money_job_duration_seconds_sum\{[^}]*name="([^"]+)"[^}]*\} (\S+)$/gm)) out[m[1]!] = (out[m[1]!] ?? 0) + Number(m[2]);
  return out;
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

const measureSize = async (players: number): Promise<SizeResult> => {
  const name = `money_scale_${process.pid}_${players}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  const dbUrl = adminUrl.replace(/\/[^/]*$/, `/${name}`);
  // Seeding millions of rows takes longer than a request's 5 s statement bound.
  const db = await openDb(loadConfig({ DATABASE_URL: dbUrl }), { queryTimeoutMs: 0 });
  try {
    const load0 = loadavg()[0]!;
    console.log(`${players.toLocaleString('en')} players: seeding with ${seedWorkers} workers…`);
    const seed = await seedPlayers(db, players, Date.now(), seedWorkers);
    const seeded = seed.usersMs + seed.referralsMs + seed.ledgerMs + seed.walletsMs + seed.remindersMs + seed.indexesMs;
    console.log(`  seeded in ${(seeded / 1000).toFixed(1)} s (+ vacuum ${(seed.vacuumMs / 1000).toFixed(1)} s, ranked view ${(seed.rankBuildMs / 1000).toFixed(1)} s, counters ${(seed.countersMs / 1000).toFixed(1)} s)`);
    const jobs = await timeJobs(db, players);
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
    const dead0 = await deadTuples(db);
    for (const mode of ['postgres', 'redis'] as const) {
      const prefix = mode === 'redis' ? `money-bench:${process.pid}:${players}:` : null;
      const server = await startServer(dbUrl, prefix);
      try {
        await waitForRanks(db, players, prefix);
        const jobs0 = await jobSeconds();
        const wall0 = performance.now();
        const calls: Record<string, Measured> = {};
        for (const call of calls_) {
          const w0 = call.method === 'POST' ? await writesSoFar(db) : 0;
          const l0 = call.method === 'POST' ? await walLsn(db) : '0/0';
          const m = await drive(call, players, server.pid!);
          if (call.method === 'POST' && mode === 'postgres') {
            await new Promise((r) => setTimeout(r, 1_500));
            rowsPerClick = ((await writesSoFar(db)) - w0) / m.total;
            walPerClick = (await walSince(db, l0)) / m.total;
          }
          calls[call.name] = m;
          console.log(`  ${mode} ${call.name}: p50 ${m.p50} ms, p99 ${m.p99} ms, ${Math.round(m.rps)}/s, ${m.bad} bad (${m.shed} shed)`);
        }
        const stalenessMs = await rankStaleness(db, players, mode === 'redis' ? 1 : 0);
        const jobs1 = await jobSeconds();
        const wallS = (performance.now() - wall0) / 1000;
        const jobShare = Object.fromEntries(Object.entries(jobs1).map(([job, s]) => [job, (s - (jobs0[job] ?? 0)) / wallS]));
        console.log(`  ${mode}: rank change visible after ${Math.round(stalenessMs)} ms; jobs' share of a core ${JSON.stringify(jobShare)}`);
        runs[mode] = { calls, jobShare, stalenessMs };
      } finally {
        await stopServer(server);
      }
      if (prefix !== null) {
        const r = openRedis(redisUrl, { prefix });
        await r.waitReady(5_000);
        await r.client.del(`${prefix}ranks`, ranksVersionKey(r));
        await r.close();
      }
    }
    const dead1 = await deadTuples(db);
    const vacuum = Object.fromEntries(hotTables.map((t) => [t, { before: dead0[t]?.dead ?? 0, after: dead1[t]?.dead ?? 0, runs: (dead1[t]?.runs ?? 0) - (dead0[t]?.runs ?? 0) }]));
    return { players, measuredAt: new Date().toISOString(), seed, jobs, bytes, rowsPerClick, walPerClick, vacuum, runs, autovacuum, sharedBuffers: settings.buffers, load: [load0, loadavg()[0]!], cores: cpus().length };
  } finally {
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
};

const ms = (v: number | null) => (v === null || Number.isNaN(v) ? 'n/a' : !Number.isFinite(v) ? 'never' : v < 10 ? v.toFixed(1) : Math.round(v).toLocaleString('en'));
const sec = (v: number) => `${(v / 1000).toFixed(1)} s`;
const fmtK = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1_000}k`);
const resultsPath = new URL('./RESULTS.md', import.meta.url);
const dataMark = /<!-- scale-data (.*?) -->/s;

/** The sizes measured before (kept in the section), with this run's replacing theirs. */
const merged = (fresh: SizeResult[]): SizeResult[] => {
  const text = existsSync(resultsPath) ? readFileSync(resultsPath, 'utf8') : '';
  const old = dataMark.exec(text);
  const kept: SizeResult[] = old === null ? [] : (JSON.parse(old[1]!) as SizeResult[]);
  const bySize = new Map(kept.map((r) => [r.players, r]));
  for (const r of fresh) bySize.set(r.players, r);
  return [...bySize.values()].sort((a, b) => a.players - b.players);
};

const report = (fresh: SizeResult[]) => {
  const results = merged(fresh);
  const modes = ['postgres', 'redis'] as const;
  const head = results.flatMap((r) => [`${fmtK(r.players)} p50 / p99`, `${fmtK(r.players)} + Redis p50 / p99`]);
  const big = results.at(-1)!;
  const rows = calls_.map((c) => {
    const cells = results.flatMap((r) => modes.map((m) => (r.runs[m].calls[c.name] ? `${ms(r.runs[m].calls[c.name]!.p50)} / ${ms(r.runs[m].calls[c.name]!.p99)}` : 'n/a')));
    const b = big.runs.postgres.calls[c.name]!;
    const bad = results.reduce((t, r) => t + modes.reduce((u, m) => u + (r.runs[m].calls[c.name]?.bad ?? 0), 0), 0);
    const shed = results.reduce((t, r) => t + modes.reduce((u, m) => u + (r.runs[m].calls[c.name]?.shed ?? 0), 0), 0);
    return `| ${c.name} | ${cells.join(' | ')} | ${Math.round(b.rps).toLocaleString('en')} | ${b.apiCpuMsPerReq.toFixed(2)} | ${b.pgCpuMsPerReq >= 0 ? b.pgCpuMsPerReq.toFixed(2) : 'n/a'} | ${bad}${shed > 0 ? ` (${shed} shed)` : ''} |`;
  });
  const seedLines = results.map((r) => {
    const s = r.seed;
    const reminders = s.remindersMs ?? 0;
    return `| ${r.players.toLocaleString('en')} | ${s.workers} | ${sec(s.usersMs)} | ${sec(s.ledgerMs)} | ${sec(s.referralsMs + s.walletsMs)} | ${sec(reminders)} | ${sec(s.indexesMs)} | ${sec(s.vacuumMs)} | **${sec(s.usersMs + s.referralsMs + s.ledgerMs + s.walletsMs + reminders + s.indexesMs + s.vacuumMs)}** | ${sec(s.rankBuildMs)} | ${sec(s.countersMs)} |`;
  });
  const jobLines = results.map((r) => {
    const j = r.jobs;
    return `| ${r.players.toLocaleString('en')} | ${ms(j.rankApply1kMs)} | ${ms(j.rankApply10kMs)} | ${ms(j.redisCatchUp1kMs)} | ${ms(j.redisPublishMs)} | ${ms(j.statsFoldMs)} | ${ms(j.statsRebuildMs)} | ${ms(j.consoleMs)} | ${ms(j.consoleRebuildMs)} | ${ms(j.integrityMs)} | ${ms(j.airdropMs)} (${j.airdropWallets.toLocaleString('en')} wallets) | ${ms(j.reminders1kMs ?? null)} / ${ms(j.reminders10kMs ?? null)} |`;
  });
  // Each job at 0.1% of a core or more, largest first, and all jobs together.
  const share = (run: ServerRun) => {
    const all = Object.values(run.jobShare).reduce((t, f) => t + f, 0);
    const top = Object.entries(run.jobShare).filter(([, f]) => f >= 0.001).sort((a, b) => b[1] - a[1]);
    return `${top.length === 0 ? 'each < 0.1%' : top.map(([job, f]) => `${job} ${(f * 100).toFixed(1)}%`).join(', ')}; all ${(all * 100).toFixed(1)}%`;
  };
  const runLines = results.map(
    (r) =>
      `| ${r.players.toLocaleString('en')} | ${share(r.runs.postgres)} | ${share(r.runs.redis)} | ${ms(r.runs.postgres.stalenessMs)} / ${ms(r.runs.redis.stalenessMs)} | ${r.rowsPerClick.toFixed(2)} | ${Math.round(r.walPerClick).toLocaleString('en')} | ${r.load[0].toFixed(1)} → ${r.load[1].toFixed(1)} on ${r.cores} cores | shared_buffers ${r.sharedBuffers ?? '128MB'}, autovacuum ${r.autovacuum ? 'on' : 'off'} | ${r.measuredAt.slice(0, 10)} |`,
  );
  const byteLines = results.map((r) => `| ${r.players.toLocaleString('en')} | ${r.bytes.users} | ${r.bytes.ledger} | ${r.bytes.referrals} | ${r.bytes.ranks} | ${r.bytes.indexes} | ${r.bytes.users + r.bytes.ledger + r.bytes.referrals + r.bytes.ranks} |`);
  const vacLines = results.map((r) => `| ${r.players.toLocaleString('en')}${r.autovacuum === false ? ' (autovacuum off)' : ''} | ${hotTables.map((t) => `${r.vacuum[t]!.before.toLocaleString('en')} → ${r.vacuum[t]!.after.toLocaleString('en')} (${r.vacuum[t]!.runs})`).join(' | ')} |`);
  // The targets at the big size on PostgreSQL alone and with Redis: p99 ≤ 50 ms, /public/stats p99 ≤ 15 ms, no 5xx.
  const target = (c: Call) => (c.name.includes('/public/stats') ? 15 : 50);
  const missed = modes.flatMap((m) => calls_.filter((c) => big.runs[m].calls[c.name]!.p99 > target(c)).map((c) => `${c.name}${m === 'redis' ? ' + Redis' : ''} (${ms(big.runs[m].calls[c.name]!.p99)} ms)`));
  const verdict =
    missed.length === 0
      ? `Targets at ${fmtK(big.players)} (every p99 ≤ 50 ms, stats ≤ 15 ms, with and without Redis): met.`
      : `Targets at ${fmtK(big.players)} (every p99 ≤ 50 ms, stats ≤ 15 ms, with and without Redis): **not met** by ${missed.join(', ')}, at a 1-minute load average of ${big.load[0].toFixed(1)} on ${big.cores} shared cores.`;
  writeSection(
    'scale',
    `## Every call at ${results.map((r) => r.players.toLocaleString('en')).join(', ')} players (\`npm run bench:scale -- --players N\`)

Real server (\`server/main.ts\`) on a fresh PostgreSQL database per size, ${inFlight} requests in flight (autocannon), ${durationS} s per call after 400 warm-up requests; players spread over the whole table (a different player each request). "+ Redis" is the same database with \`REDIS_URL\` set (ranks from the sorted set that mirrors the ranked view). Latencies in ms. req/s and CPU per request are for ${fmtK(big.players)} without Redis: "API CPU" is the server process (/proc), "PG CPU" every postgres process on the machine (other work on this shared machine adds to it). "bad" = non-2xx, errors and timeouts over every run; "shed" = of them, 503s of load shedding (SHED_*: the server refuses work while its event loop or queue lags, which a saturated machine causes). The leaderboard's last page is page ${lastPage(big.players).toLocaleString('en')} at ${fmtK(big.players)}. Each size keeps the figures of its last run (the date is in the server-run table).

| call | ${head.join(' | ')} | req/s | API CPU ms/req | PG CPU ms/req | bad |
|---|${head.map(() => '---|').join('')}---|---|---|---|
${rows.join('\n')}

${verdict}

Seeding (bench/scale-seed.ts; generate_series in parallel transactions, triggers off, every secondary index built after the load; then the maintained structures from scratch):

| players | workers | users | ledger (3 rows a player) | 20,000 referrals + ${linkedWallets.toLocaleString('en')} wallets | reminders rows | indexes | vacuum analyze | seed total | ranked view, first build | counters from scratch |
|---|---|---|---|---|---|---|---|---|---|---|
${seedLines.join('\n')}

The jobs that grow with players, each timed alone before the server starts (ms). The maintained ones cost what changed: the ranks job applying the marks of 1,000 or 10,000 MONEY changes, the Redis mirror catching up on 1,000, the stats and console folds; beside them what a scan of every player costs (the whole-set copy into Redis, the counters from scratch) and the integrity signals and the airdrop snapshot over the seeded wallets (\`npm run bench:snapshot\` measures 1M wallets). Every player has a reminders row, due later; the reminders job's run is timed with 1,000 and with 10,000 players made due (one run decides at most REMINDERS_BATCH, ${(results.at(-1)!.jobs.remindersBatch ?? 2000).toLocaleString('en')}, oldest first, queuing each into the broadcast queue):

| players | ranks: 1,000 changes | ranks: 10,000 changes | Redis catch-up, 1,000 | Redis whole copy | stats fold | stats from scratch | console job | console from scratch | integrity signals | airdrop snapshot | reminders run: 1,000 / 10,000 due |
|---|---|---|---|---|---|---|---|---|---|---|---|
${jobLines.join('\n')}

While the server ran the calls above: each job's share of one core (money_job_duration_seconds summed over the run ÷ the run's wall time; an upper bound, it includes waits), how long a MONEY change took to show in the player's own rank (committed → GET /leaderboard answers the new rank), and what a click batch writes (rows, and WAL bytes from pg_current_wal_lsn over the click run; the WAL is the whole cluster's, so other work on the machine adds to it):

| players | jobs' share of a core, PostgreSQL | with Redis | rank change visible after, PostgreSQL / Redis (ms) | rows per click batch | WAL bytes per click batch | load average | cluster | measured |
|---|---|---|---|---|---|---|---|---|
${runLines.join('\n')}

Storage, bytes per player (pg_total_relation_size: each table with its indexes and TOAST; "indexes" is every index of these tables):

| players | users | ledger (3 rows) | referrals | ranked view | of which indexes | total |
|---|---|---|---|---|---|---|
${byteLines.join('\n')}

Autovacuum on the hot tables: dead tuples before the first server run → after the last (autovacuum runs in between). Where the cluster runs with \`autovacuum = off\` (a shared development machine), nothing vacuums during the run: the figures are then what the run leaves, and the bench vacuums once after its job timings so the server starts on settled tables:

| players | ${hotTables.join(' | ')} |
|---|${hotTables.map(() => '---|').join('')}
${vacLines.join('\n')}

<!-- scale-data ${JSON.stringify(results)} -->`,
  );
};

const main = async () => {
  const results: SizeResult[] = [];
  for (const players of sizes) results.push(await measureSize(players));
  report(results);
  console.log('bench/RESULTS.md: scale section written.');
};

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
