/**
 * `npm run bench:server`: POST /click from 10,000 players, driven by autocannon, against the API
 * on PostgreSQL (DATABASE_URL, default the local server) and on PGlite, and against the same route
 * with its state in memory. Reports batches/s, p50/p99 latency and clicks lost (accepted taps in
 * the answers against the taps stored), then writes the `server` section of bench/RESULTS.md.
 *
 * The server runs in a child process (this file with `--serve`), so the load generator and the
 * server do not share one event loop. BENCH_PG_WORKERS and BENCH_STICKY (below) measure the
 * PostgreSQL target as several workers, and players who keep to one connection.
 */
import { fork, type ChildProcess } from 'node:child_process';
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { apiPrefix } from '../engine/wire/api-types.ts';
import { applyTaps } from '../engine/rules/clicks.ts';
import { money, toWire } from '../engine/rules/money.ts';
import { createApp } from '../server/app.ts';
import { initDataFromHeader, initDataSecret, signInitData, verifyInitData, type VerifiedInitData } from '../server/players/init-data.ts';
import { systemClock } from '../server/core/clock.ts';
import { loadConfig } from '../server/background/settings.ts';
import { openDb, type Db } from '../server/core/db/db.ts';
import { statusOf, type UserRow } from '../server/players/users.ts';
import { botToken, firstId, players, refcodeOf, seedPlayers, totalClicks as storedClicks } from './click-players.ts';
import { autocannon, benchPgUrl, cpuMs, postgresCpuMs, processCpuMs, tallyAcknowledged } from './load.ts';
import { writeSection } from './results.ts';

const durationS = Number(process.env.BENCH_DURATION_S ?? 10);
// 100 connections, no pipelining (a Mini App does not pipeline). At load average ~3.5 one autocannon
// process drives ~18,700 requests/s against the noop route this way, so it is not the limit; under
// heavy load from other work (~8) it fell to ~4,000 and BENCH_PIPELINING=4 with 25 connections helped.
const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);
const pipelining = Number(process.env.BENCH_PIPELINING ?? 1);
// BENCH_RATE: an open-loop rate (requests/s over all connections) instead of as fast as answers come;
// CPU per batch at one fixed rate compares two builds on a machine other work shares.
const rate = process.env.BENCH_RATE === undefined ? undefined : Number(process.env.BENCH_RATE);

/**
 * "postgres+metrics" is the PostgreSQL target with METRICS_TOKEN set (every request timed into the
 * histograms, docs/operations.md); "postgres+preload" is it started as `npm start` starts it, with
 * the traces preload and no OTEL_EXPORTER_OTLP_ENDPOINT (traces off). Each is compared with plain
 * "postgres" round by round: what operations cost the click path.
 */
type Target = 'postgres' | 'postgres+metrics' | 'postgres+preload' | 'pglite' | 'memory' | 'noop';
const isPostgres = (t: Target) => t.startsWith('postgres');

// ---------------------------------------------------------------- server side (child process)

/** The same POST /click (schema, init-data check, engine rule, status answer) with state in a Map. */
const memoryApp = () => {
  const app = Fastify({ logger: false });
  const secret = initDataSecret(botToken);
  const cache = new Map<string, VerifiedInitData>();
  const rows = new Map<number, UserRow>();
  const batches = new Map<string, number>();
  let clicks = 0;
  const now0 = Date.now();
  for (let i = 0; i < players; i++) {
    const id = firstId + i;
    rows.set(id, {
      id, refcode: refcodeOf(i), ref_level: 1, invite_cnt: 0, referred_by: null, tele_username: `bench${id}`, tele_name: 'Bench',
      tele_avatar: null, tele_age: 100, tw_username: null, tw_avatar: null, tw_age: 0, is_premium: false, total_earn: '0',
      total_money: '0', total_ref: '0', total_money_ref: '0', total_click: 0, finger_level: 1, energy_level: 1, levels: {},
      energy: 500, energy_at_ms: now0, tap_clock_ms: now0, last_claimed_ms: now0, is_claimed_welcome: false, tw_reward_paid: false,
      is_claimed_easter: false, pre_wl_coming: 0, boost_channel_cnt: 0, created_at_ms: now0,
    });
  }
  app.post<{ Body: { click: number; batchId?: string } }>(
    `${apiPrefix}/click`,
    {
      schema: {
        body: {
          type: 'object', additionalProperties: false, required: ['click'],
          properties: { click: { type: 'integer', minimum: 1, maximum: 100_000 }, batchId: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,64}$' }, seq: { type: 'integer' } },
        },
      },
    },
    async (request, reply) => {
      const raw = initDataFromHeader(request.headers.authorization);
      let data = raw === undefined ? undefined : cache.get(raw);
      if (data === undefined) {
        const check = verifyInitData(raw, secret, Date.now(), 86_400);
        if (!check.ok) return reply.status(401).send({ error: 'Unauthorized', message: check.message });
        data = check.data;
        cache.set(raw!, data);
      }
      const row = rows.get(data.user.id)!;
      const now = Date.now();
      const key = `${row.id}:${request.body.batchId}`;
      let accepted = batches.get(key);
      if (accepted === undefined) {
        const out = applyTaps({ energy: row.energy, energyAtMs: row.energy_at_ms, energyLevel: row.energy_level, fingerLevel: row.finger_level, tapClockMs: row.tap_clock_ms }, request.body.click, now);
        accepted = out.accepted;
        if (accepted > 0) {
          Object.assign(row, { energy: out.energy, energy_at_ms: out.energyAtMs, tap_clock_ms: out.tapClockMs, total_click: row.total_click + accepted, total_earn: toWire(money(row.total_earn).plus(out.earned)) });
          clicks += accepted;
        }
        batches.set(key, accepted);
      }
      return { batchId: request.body.batchId ?? null, accepted, status: statusOf(row, now) };
    },
  );
  const measured = async () => {
    const out: Record<string, number> = {};
    for (const [key, accepted] of batches) {
      const batchId = key.slice(key.indexOf(':') + 1);
      if (batchId.startsWith('m')) out[batchId] = accepted;
    }
    return out;
  };
  return { app, totalClicks: async () => clicks, measured };
};

/**
 * The ceiling of this machine's HTTP stack and load generator: the same request (body schema,
 * JSON answer of about the same size) with no auth, no rule and no storage.
 */
const noopApp = () => {
  const app = Fastify({ logger: false });
  const answer = JSON.stringify({ status: { filler: 'x'.repeat(900) }, accepted: 3 });
  let n = 0;
  app.post<{ Body: { click: number; batchId?: string } }>(
    `${apiPrefix}/click`,
    { schema: { body: { type: 'object', required: ['click'], properties: { click: { type: 'integer' }, batchId: { type: 'string' }, seq: { type: 'integer' } } } } },
    async (request, reply) => {
      n++;
      return reply.type('application/json').send(`{"batchId":"${request.body.batchId}",${answer.slice(1)}`);
    },
  );
  // Stores nothing: its row reports no taps (the lost/double columns do not apply).
  void n;
  return { app, totalClicks: async () => 0, measured: async () => ({}) as Record<string, number> };
};

// BENCH_PG_WORKERS=N: the PostgreSQL target served by N workers on one port through node:cluster,
// as `WORKERS=N npm start` runs the product (docs/scaling.md, "Several workers and the click path").
const pgWorkers = Number(process.env.BENCH_PG_WORKERS ?? 1);
// BENCH_STICKY=1: each connection sends the batches of its own players (connection k: players k,
// k + connections, …), as a player's app on one keep-alive connection does; by default every
// request takes the next player, so a player's batches arrive over every connection.
const sticky = process.env.BENCH_STICKY === '1';

const pgConfig = () => loadConfig({ BOT_TOKEN: botToken, NODE_ENV: 'production', DATABASE_URL: benchPgUrl });

/** The measured batches (batchIds "m…") as stored: batchId → accepted. */
const storedBatches = async (db: Db): Promise<Record<string, number>> => {
  const r = await db.query<{ batch_id: string; accepted: number }>("SELECT batch_id, accepted FROM click_batches WHERE batch_id LIKE 'm%'");
  return Object.fromEntries(r.rows.map((b) => [b.batch_id, b.accepted]));
};

/** One of BENCH_PG_WORKERS workers: the real app on the schema the primary seeded. */
const serveWorker = async () => {
  const config = pgConfig();
  const db = await openDb(config, { schema: process.env.BENCH_SCHEMA!, poolSize: 12, migrate: false, keepSchema: true });
  const app = await createApp({ db, config, clock: systemClock });
  // listen(0) in cluster workers: the primary gives every worker the same port.
  await app.listen({ host: '127.0.0.1', port: 0 });
};

/** A served target, as the parent asks about it over IPC. */
interface Served {
  port: number;
  totalClicks(): Promise<number>;
  measured(): Promise<Record<string, number>>;
  /** CPU time (ms) of the processes that serve the route. */
  cpu(): number;
  close(): Promise<void>;
}

/** A schema of its own for each PostgreSQL run (dropped when its database handle closes). */
const benchSchema = () => `t_bench_${randomBytes(4).toString('hex')}`;

/** The primary of BENCH_PG_WORKERS: seeds, forks the workers, and counts their CPU. */
const servePgWorkers = async (): Promise<Served> => {
  const schema = benchSchema();
  const db = await openDb(pgConfig(), { schema, poolSize: 2 });
  await seedPlayers(db, Date.now());
  let port = 0;
  for (let i = 0; i < pgWorkers; i++) {
    const w = cluster.fork({ BENCH_SCHEMA: schema });
    port = await new Promise<number>((resolve) => w.once('listening', (a) => resolve(a.port)));
  }
  const workers = () => Object.values(cluster.workers!).map((w) => w!);
  return {
    port,
    totalClicks: () => storedClicks(db),
    measured: () => storedBatches(db),
    cpu: () => workers().reduce((ms, w) => ms + processCpuMs(w.process.pid!), 0),
    close: async () => {
      for (const w of workers()) w.process.kill('SIGKILL');
      await db.close();
    },
  };
};

/** One process serving `target`. */
const serveOne = async (target: Target): Promise<Served> => {
  let totalClicks: () => Promise<number>;
  let measured: () => Promise<Record<string, number>>;
  let close: () => Promise<void>;
  let app;
  if (target === 'memory' || target === 'noop') {
    const m = target === 'memory' ? memoryApp() : noopApp();
    app = m.app;
    totalClicks = m.totalClicks;
    measured = m.measured;
    close = () => app!.close();
  } else {
    const config = target === 'postgres+metrics' ? loadConfig({ BOT_TOKEN: botToken, NODE_ENV: 'production', DATABASE_URL: benchPgUrl, METRICS_TOKEN: randomBytes(24).toString('hex') }) : isPostgres(target) ? pgConfig() : loadConfig({ BOT_TOKEN: botToken, NODE_ENV: 'production' });
    const db = await openDb(config, isPostgres(target) ? { schema: benchSchema(), poolSize: 12 } : { inMemory: true });
    await seedPlayers(db, Date.now());
    app = await createApp({ db, config, clock: systemClock });
    totalClicks = () => storedClicks(db);
    measured = () => storedBatches(db);
    close = async () => {
      await app!.close();
      await db.close();
    };
  }
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { port, totalClicks, measured, cpu: () => cpuMs(process.cpuUsage()), close };
};

const serve = async (target: Target) => {
  if (cluster.isWorker) return serveWorker();
  const served = target === 'postgres' && pgWorkers > 1 ? await servePgWorkers() : await serveOne(target);
  process.on('message', async (m: string) => {
    if (m === 'total') process.send!({ total: await served.totalClicks() });
    if (m === 'cpu') process.send!({ cpu: served.cpu() });
    if (m === 'batches') process.send!({ batches: await served.measured() });
    if (m === 'stop') {
      await served.close();
      process.exit(0);
    }
  });
  process.send!({ port: served.port });
};

// ---------------------------------------------------------------- load generator (parent)

// The V8 flags `npm start` gives the server (package.json), so every target runs as the product does.
const startFlags = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } }).scripts.start
  .split(' ')
  .filter((a) => /^--max-(semi|old)-space-size=/.test(a));

const startServer = (target: Target): Promise<{ child: ChildProcess; port: number }> =>
  new Promise((resolve, reject) => {
    const preload = target === 'postgres+preload' ? ['--import', fileURLToPath(new URL('../server/tracing-preload.ts', import.meta.url))] : [];
    const execArgv = [...startFlags, '--import', 'tsx', ...preload, ...(process.env.BENCH_CHILD_ARGS?.split(' ').filter(Boolean) ?? [])];
    // Traces stay off in every target (the preload's row is "traces off"), whatever the bench's environment says.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_')));
    const child = fork(fileURLToPath(import.meta.url), ['--serve', target], { execArgv, env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (m: { port: number }) => resolve({ child, port: m.port }));
    child.once('exit', (code) => reject(new Error(`${target} server exited with ${code}`)));
  });

const ask = <T>(child: ChildProcess, m: string): Promise<T> =>
  new Promise((resolve) => {
    child.once('message', (r: Record<string, T>) => resolve(Object.values(r)[0]!));
    child.send(m);
  });

const run = async (target: Target) => {
  const { child, port } = await startServer(target);
  const auths = Array.from({ length: players }, (_, i) => `tma ${signInitData(botToken, { user: { id: firstId + i, first_name: 'Bench', username: `bench${firstId + i}` } })}`);
  let seq = 0;
  let stickyNext = 0;
  /** Connection k's players in turn: k, k + connections, … */
  const stickyPlayers = (k: number) => {
    const own = Math.floor(players / connections);
    let i = 0;
    return () => k + connections * (i++ % own);
  };
  // batchId → accepted, for every answered batch of the measured run (batchIds "m…").
  const answered = new Map<string, number>();
  const tapsPerBatch = 3;
  let prefix = 'w';
  let measureNow = false;
  const request = (who: (n: number) => number) => ({
    method: 'POST',
    setupRequest: (req: Record<string, unknown>) => {
      const n = seq++;
      return {
        ...req,
        headers: { 'content-type': 'application/json', authorization: auths[who(n)]! },
        body: `{"click":${tapsPerBatch},"batchId":"${prefix}${n}","seq":${n}}`,
      };
    },
    onResponse: (status: number, body: string) => {
      if (!measureNow || status !== 200) return;
      const m = /"batchId":"(m\d+)","accepted":(\d+)/.exec(body);
      if (m !== null) answered.set(m[1]!, Number(m[2]));
    },
  });
  const load = (limit: { duration: number } | { amount: number }, measure: boolean) => {
    measureNow = measure;
    return autocannon({
      url: `http://127.0.0.1:${port}${apiPrefix}/click`,
      connections,
      pipelining,
      ...(rate !== undefined && measure ? { overallRate: rate } : {}),
      ...limit,
      requests: [request((n) => n % players)],
      // Sticky: autocannon resets a request's context each time, so each client gets its own request.
      ...(sticky ? { setupClient: (client: { setRequests(r: unknown[]): void }) => client.setRequests([request(stickyPlayers(stickyNext++ % connections))]) } : {}),
    });
  };
  // Warm-up: every player's first call verifies their init data and checks the profile row.
  await load({ amount: players }, false);
  const before = await ask<number>(child, 'total');
  prefix = 'm';
  const cpu0 = { gen: cpuMs(process.cpuUsage()), server: await ask<number>(child, 'cpu'), pg: postgresCpuMs() };
  const r = await load({ duration: durationS }, true);
  const cpu = { gen: cpuMs(process.cpuUsage()) - cpu0.gen, server: (await ask<number>(child, 'cpu')) - cpu0.server, pg: postgresCpuMs() - cpu0.pg };
  // Requests cut off at the end may still commit: let them land before counting.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const after = await ask<number>(child, 'total');
  const stored = await ask<Record<string, number>>(child, 'batches');
  child.send('stop');
  await new Promise((resolve) => child.once('exit', resolve));
  const { acceptedInAnswers, lost, storedInBatches } = tallyAcknowledged(answered, stored);
  return {
    target,
    rps: r.requests.average,
    total: r.requests.total,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    accepted: acceptedInAnswers,
    stored: after - before,
    // Taps counted in totalClick beyond the recorded batches would be double counting.
    doubled: after - before - storedInBatches,
    lost,
    // CPU ms per 1,000 batches: load generator, server process, all PostgreSQL processes.
    cpuPer1k: { gen: (cpu.gen / r.requests.total) * 1_000, server: (cpu.server / r.requests.total) * 1_000, pg: (cpu.pg / r.requests.total) * 1_000 },
  };
};

type RunResult = Awaited<ReturnType<typeof run>>;

// BENCH_ROUNDS: the targets run in this many interleaved rounds (each round in a rotated order), so
// every ratio compares two targets measured a minute apart at most; the machine's speed drifts
// between runs (the generator's own CPU per request moved 54 → 80 µs in one hour) and a single
// pass turned that drift into the ratio.
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Each target's round with the median batches/s, the sums of lost and doubled over all its rounds. */
const summarise = (all: readonly RunResult[]): RunResult => {
  const mid = median(all.map((r) => r.rps));
  const pick = [...all].sort((a, b) => Math.abs(a.rps - mid) - Math.abs(b.rps - mid))[0]!;
  return { ...pick, lost: all.reduce((n, r) => n + r.lost, 0), doubled: all.reduce((n, r) => n + r.doubled, 0) };
};

const main = async () => {
  const targets = (process.env.BENCH_TARGETS?.split(',') as Target[] | undefined) ?? ['postgres', 'pglite', 'memory', 'noop'];
  // The variants run in one process: with several workers they would be compared with N processes.
  if (pgWorkers > 1 && targets.some((t) => t.startsWith('postgres+'))) throw new Error('BENCH_PG_WORKERS > 1 measures plain postgres only; drop the postgres+ targets');
  const byRound: Map<Target, RunResult>[] = [];
  const loadBefore = loadavg()[0]!;
  for (let round = 0; round < rounds; round++) {
    const results = new Map<Target, RunResult>();
    for (let k = 0; k < targets.length; k++) {
      const t = targets[(k + round) % targets.length]!;
      console.log(`bench:server round ${round + 1}/${rounds} → ${t} (${durationS} s, ${connections} connections, ${players} players)…`);
      const r = await run(t);
      console.log(r);
      results.set(t, r);
    }
    byRound.push(results);
  }
  const loadAfter = loadavg()[0]!;
  const results = targets.map((t) => summarise(byRound.map((m) => m.get(t)!)));
  /** `t`'s batches/s ÷ memory's, in each round. */
  const roundRatios = (t: Target): number[] => byRound.map((m) => m.get(t)!.rps / m.get('memory')!.rps);
  /** The median over rounds of those ratios. */
  const ratioOf = (t: Target): number | undefined => (targets.includes('memory') ? median(roundRatios(t)) : undefined);
  const pg = results.find((r) => r.target === 'postgres');
  // What operations cost the click path: each variant against plain PostgreSQL. Batches/s per round
  // move ±15 % with the generator on the same cores, so the verdict (at most 3 % fewer) is taken on
  // the machine's capacity for it: the median over rounds of the CPU a batch costs (generator,
  // server and PostgreSQL), which the variant's own work moves and the round's luck moves less.
  const cpuPerBatch = (r: RunResult) => (r.cpuPer1k.gen + r.cpuPer1k.server + r.cpuPer1k.pg) / 1_000;
  const opsCost = (['postgres+metrics', 'postgres+preload'] as const)
    .filter((t) => targets.includes(t) && targets.includes('postgres'))
    .map((t) => {
      const ratios = byRound.map((m) => m.get(t)!.rps / m.get('postgres')!.rps);
      const plainCpu = median(byRound.map((m) => cpuPerBatch(m.get('postgres')!)));
      const cpu = median(byRound.map((m) => cpuPerBatch(m.get(t)!)));
      const capacity = plainCpu / cpu;
      const what = t === 'postgres+metrics' ? 'Metrics on (METRICS_TOKEN)' : 'The traces preload with traces off (as `npm start` runs)';
      const diff = (x: number) => (x <= 1 ? `${((1 - x) * 100).toFixed(1)} % fewer` : `${((x - 1) * 100).toFixed(1)} % more`);
      return `\n- ${what}: a batch cost ${(cpu * 1_000).toFixed(0)} µs of CPU against plain PostgreSQL's ${(plainCpu * 1_000).toFixed(0)} µs (medians over rounds), so the machine serves ${diff(capacity)} batches a second with it; at most 3 % fewer: ${capacity >= 0.97 ? 'met' : 'NOT met'}. Batches/s, run side by side: ${median(ratios).toFixed(3)}× (rounds ${ratios.map((y) => y.toFixed(3)).join(', ')}).`;
    })
    .join('');
  const lite = results.find((r) => r.target === 'pglite');
  const noop = results.find((r) => r.target === 'noop');
  const cores = cpus().length;
  // If the cores did nothing else: batches/s = cores × 1,000 ms / CPU ms per batch (generator + server + PostgreSQL).
  const cpuCells = (r: RunResult) => {
    const perBatch = (r.cpuPer1k.gen + r.cpuPer1k.server + r.cpuPer1k.pg) / 1_000;
    return `${Math.round(r.cpuPer1k.gen)} / ${Math.round(r.cpuPer1k.server)} / ${Math.round(r.cpuPer1k.pg)} | ${Math.round((cores * 1_000) / perBatch)}`;
  };
  const ratioCell = (r: RunResult) => {
    const x = ratioOf(r.target);
    return x === undefined ? '–' : `${x.toFixed(2)}${rounds > 1 && r.target !== 'memory' ? ` (${roundRatios(r.target).map((y) => y.toFixed(2)).join(', ')})` : ''}`;
  };
  const rows = results.map(
    (r) =>
      r.target === 'noop'
        ? `| noop (ceiling) | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.total} | ${r.non2xx + r.errors} | – | – | – | – | ${ratioCell(r)} | ${cpuCells(r)} |`
        : `| ${r.target} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.total} | ${r.non2xx + r.errors} | ${r.accepted} | ${r.stored} | ${r.lost} | ${r.doubled} | ${ratioCell(r)} | ${cpuCells(r)} |`,
  );
  // The click path's targets, judged on one run, nothing lost or doubled (docs/decisions/clicks.md,
  // "The click path's target and its design").
  const pgTarget = { ratio: 0.45, p99Ms: 35 };
  const verdict = (r: RunResult | undefined, name: string, min: number, p99?: number): string => {
    const x = r === undefined ? undefined : ratioOf(r.target);
    if (r === undefined || x === undefined) return `${name}: not measured against memory.`;
    const ok = x >= min && (p99 === undefined || r.p99 <= p99) && r.lost === 0 && r.doubled === 0;
    return `${name} (≥ ${min}× memory${p99 === undefined ? '' : `, p99 ≤ ${p99} ms`}, 0 lost, 0 counted twice): ${ok ? 'met' : 'NOT met'} — ${x.toFixed(2)}×${p99 === undefined ? '' : `, p99 ${r.p99} ms`}, ${r.lost} lost, ${r.doubled} counted twice.`;
  };
  writeSection(
    'server',
    `## API server: POST /click (\`npm run bench:server\`)

autocannon, ${connections} connections${pipelining > 1 ? `, pipelining ${pipelining}` : ''}, ${durationS} s after a warm-up, ${players.toLocaleString('en')} players (${sticky ? 'each connection its own players' : 'round-robin init data'}, pre-signed),${pgWorkers > 1 ? ` PostgreSQL served by ${pgWorkers} workers on one port (node:cluster, as WORKERS does),` : ''} ${3} taps a batch, unique batchIds. ${rounds} interleaved round${rounds === 1 ? '' : 's'} of all targets (each round in a rotated order); each row is the target's round with the median batches/s, its ratio the median of the per-round ratios (listed in brackets), and lost / counted twice are summed over all rounds. Machine: ${cpus().length} cores, 1-minute load average ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after (other work shares the cores). "lost" = taps accepted in an answer but missing from that batch's stored record; "counted twice" = taps in totalClick beyond the stored batches (taps stored includes requests cut off at the end, which still commit). Server in a child process on the same 2-core machine as the load generator. CPU per batch is measured over the run (process.cpuUsage of generator and server, /proc of every postgres process including those that ended); the last column divides the machine's cores by that sum, i.e. the best this setup could do with the whole machine to itself. Grouped commits: concurrent batches share one group, written by one autocommitted statement (a compare-and-swap UPDATE of all their players plus the INSERTs of their batch ids and ledger rows); each answer waits for its group's commit. "memory" is the same route (schema, init-data check, engine rule, status answer) with state in a Map. "noop (ceiling)" is the same request against a Fastify route that only answers a constant ~1 KB body: what this machine's HTTP stack plus the load generator can do at all.

| Storage | batches/s | p50 ms | p99 ms | requests | non-2xx/errors | taps accepted in answers | taps stored | lost | counted twice | ratio vs memory | CPU ms per 1,000 batches: generator / server / PostgreSQL | batches/s if ${cores} idle cores did only this |
|---|---|---|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

- ${verdict(pg, 'PostgreSQL', pgTarget.ratio, pgTarget.p99Ms)}
- ${verdict(lite, 'PGlite', 0.15)}${opsCost}${noop !== undefined ? `\n- The trivial route's ceiling on this machine at the same time was ${Math.round(noop.rps)} requests/s (p99 ${noop.p99} ms): no storage can make POST /click faster than that here.` : ''}

The PostgreSQL target is ${pgTarget.ratio}× the in-memory route in one run (docs/decisions/clicks.md): on quiet machines, where both routes share two cores with the load generator, the route measured 0.49–0.54×.`,
  );
};

if (process.argv.includes('--serve')) void serve(process.argv[process.argv.indexOf('--serve') + 1] as Target);
else
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
