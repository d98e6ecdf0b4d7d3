/**
 * `npm run bench:overload`: POST /click offered open-loop at 2× and 4× the peak the real app on
 * PostgreSQL serves, measured in the same run, with load shedding on as `npm start` runs it
 * (docs/faults.md "Overload"; the SHED_* defaults unless set in the environment).
 *
 * - The peak: the server's 200s a second under a closed loop (each player sends its next batch when
 *   its answer comes) for BENCH_PEAK_S, the better of the shedding floor's and
 *   BENCH_PEAK_CONNECTIONS (128) players, by the same generator process.
 * - Then, for each factor, BENCH_DURATION_S of requests sent on a schedule at factor × peak over
 *   keep-alive connections, BENCH_OVERLOAD_CONNECTIONS to start with and more as they are needed,
 *   one request at a time each as a browser sends them (bench/open-loop.ts), by a generator in a
 *   process of its own whose CPU is reported, while /livez is asked every 200 ms on a connection
 *   of its own; then the same 4× through HAProxy's API port as ops/ha/haproxy.cfg sets it up.
 * - Judged as the targets say: goodput (the 200s a second) ≥ 70 % of the peak at 2× and ≥ 50 % at
 *   4×; /livez within 1 s every time; every answer within 1 s of when its request was due; no
 *   acknowledged tap lost or counted twice; the p99 of the 200s ≤ 100 ms on the server's own
 *   histogram (money_http_request_duration_seconds).
 * Writes the `overload` section of bench/RESULTS.md.
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { apiPrefix } from '../engine/wire/api-types.ts';
import { createApp } from '../server/app.ts';
import { systemClock } from '../server/core/clock.ts';
import { loadConfig } from '../server/background/settings.ts';
import { openDb } from '../server/core/db/db.ts';
import { metrics } from '../server/core/metrics.ts';
import { signInitData } from '../server/players/init-data.ts';
import { botToken, firstId, players, seedPlayers, totalClicks } from './click-players.ts';
import { autocannon, benchPgUrl, postgresCpuMs, processCpuMs, tallyAcknowledged } from './load.ts';
import { runClosedLoop, runOpenLoop } from './open-loop.ts';
import { renderTemplate } from '../tests/e2e/ha/ha-cluster.ts';
import { writeSection } from './results.ts';

const durationS = Number(process.env.BENCH_DURATION_S ?? 20);
const haproxyBin = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';
const factors = (process.env.BENCH_OVERLOAD_FACTORS ?? '2,4').split(',').map(Number);
const connections = Number(process.env.BENCH_OVERLOAD_CONNECTIONS ?? 1_000);
const peakConnections = Number(process.env.BENCH_PEAK_CONNECTIONS ?? 128);
const peakS = Number(process.env.BENCH_PEAK_S ?? 5);
const answerBoundMs = 1_000;
const p99TargetMs = 100;
const goodputTargets: Record<number, number> = { 2: 0.7, 4: 0.5 };
/** Behind HAProxy's maxconn and queue (ops/ha/haproxy.cfg), 4× keeps at least this share of the peak. */
const behindProxyTarget = 0.8;
const tapsPerBatch = 3;
/** The SHED_* bounds may be set in the bench's environment, to measure another setting than the defaults. */
const shedEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('SHED_')));
const shedConfig = loadConfig(shedEnv);

// ---------------------------------------------------------------- server side (child process)

/** The real app on a fresh PostgreSQL schema, shedding as `npm start` does (config defaults). */
const serve = async () => {
  // Metrics on, as an operator runs it (docs/operations.md): the server's own times come from them.
  const config = loadConfig({ ...shedEnv, BOT_TOKEN: botToken, NODE_ENV: 'production', DATABASE_URL: benchPgUrl, METRICS_TOKEN: randomBytes(24).toString('hex') });
  const db = await openDb(config, { schema: `t_bench_${randomBytes(4).toString('hex')}`, poolSize: 12 });
  await seedPlayers(db, Date.now());
  // The production logger, as `npm start` runs it: a shed request must write no line of its own.
  const app = await createApp({ db, config, clock: systemClock, loadShedding: true, logger: { level: 'info', stream: { write: () => {} } } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const shed = async () => Object.fromEntries((await metrics.http.shed.get()).values.map((v) => [String(v.labels.reason), v.value]));
  // The server's own time for POST /click's 200s: money_http_request_duration_seconds' cumulative buckets.
  const served = async () =>
    Object.fromEntries(
      (await metrics.http.requestSeconds.get()).values
        .filter((v) => v.metricName === 'money_http_request_duration_seconds_bucket' && String(v.labels.route).endsWith('/click') && String(v.labels.status) === '200')
        .map((v) => [String((v.labels as Record<string, unknown>).le), v.value]),
    );
  process.on('message', async (m: string) => {
    if (m === 'total') process.send!({ total: await totalClicks(db) });
    if (m === 'served') process.send!({ served: await served() });
    if (m === 'shed') process.send!({ shed: await shed() });
    if (m === 'batches') {
      const r = await db.query<{ batch_id: string; accepted: number }>("SELECT batch_id, accepted FROM click_batches WHERE batch_id LIKE 'm%'");
      process.send!({ batches: Object.fromEntries(r.rows.map((b) => [b.batch_id, b.accepted])) });
    }
    if (m === 'stop') {
      await app.close();
      await db.close();
      process.exit(0);
    }
  });
  process.send!({ port: typeof address === 'object' && address !== null ? address.port : 0 });
};

const auths = Array.from({ length: players }, (_, i) => `tma ${signInitData(botToken, { user: { id: firstId + i, first_name: 'Bench', username: `bench${firstId + i}` } })}`);

// ---------------------------------------------------------------- the open-loop generator (child process)

/**
 * Open: sends `load` requests a second for durationS. Closed: `load` players send as fast as their
 * answers come, for peakS. Answers the batches it saw acknowledged and its timings.
 */
const generate = async (mode: 'open' | 'closed', port: number, load: number, prefix: string, seconds: number) => {
  const ok: number[] = [];
  const refused: number[] = [];
  const otherStatus: Record<string, number> = {};
  const answered: [string, number][] = [];
  let overloadedBodies = 0;
  let slow = 0;
  const request = (n: number) => {
    const body = `{"click":${tapsPerBatch},"batchId":"${prefix}${n}","seq":${n}}`;
    return Buffer.from(`POST ${apiPrefix}/click HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: ${auths[n % players]!}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  };
  const onAnswer = (_n: number, status: number, body: string, ms: number) => {
    if (ms > answerBoundMs) slow++;
    if (status === 200) {
      ok.push(ms);
      const m = /"batchId":"(m[^"]+)","accepted":(\d+)/.exec(body);
      if (m !== null) answered.push([m[1]!, Number(m[2])]);
    } else if (status === 503) {
      refused.push(ms);
      if (body.includes('"code":"overloaded"')) overloadedBodies++;
    } else otherStatus[status] = (otherStatus[status] ?? 0) + 1;
  };
  const result =
    mode === 'open'
      ? await runOpenLoop({ port, rate: load, durationS: seconds, connections, request, answered: onAnswer })
      : { ...(await runClosedLoop({ port, connections: load, durationS: seconds, request, answered: onAnswer })), unanswered: 0, connectionsOpened: load };
  // Exit only once the report has left: an exit right after send() can drop a large message.
  process.send!({ result: { ...result, ok, refused, otherStatus, answered, overloadedBodies, slow } }, () => process.exit(0));
};

// ---------------------------------------------------------------- HAProxy in front (ops/ha/haproxy.cfg)

/**
 * HAProxy with ops/ha/haproxy.cfg's global and defaults sections and its `money_api` listener,
 * the one server being the bench's process; undefined where HAProxy is not installed.
 */
const startHaproxy = (serverPort: number): { port: number; pid: number; stop(): void } | undefined => {
  if (!existsSync(haproxyBin)) return undefined;
  const kept = new Set(['global', 'defaults', 'listen money_api']);
  // The template's sections, each from its first line to the next section's; only those kept.
  const sections = readFileSync(fileURLToPath(new URL('../ops/ha/haproxy.cfg', import.meta.url)), 'utf8').split(/\n(?=\S)/);
  const text = sections
    .filter((section) => kept.has(section.split('\n')[0]!.trim()))
    .join('\n')
    .split('\n')
    .filter((line) => !line.includes('${API2_'))
    .join('\n');
  const port = 47_000 + Math.floor(Math.random() * 1_000);
  const dir = mkdtempSync(join(tmpdir(), 'money-overload-haproxy-'));
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, renderTemplate(text, { HAPROXY_HOST: '127.0.0.1', API_PORT: port, API1_NAME: 'money1', API1_HOST: '127.0.0.1', API1_PORT: serverPort }));
  const proc = spawn(haproxyBin, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'inherit'] });
  return {
    port,
    pid: proc.pid!,
    stop: () => {
      proc.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

// ---------------------------------------------------------------- load generator (parent)

/**
 * The server and the generator each on a core of their own (BENCH_PIN=0 turns it off): a generator
 * offering 2× and 4× a server's peak needs about a core itself, and sharing the server's cores it
 * would take what it measures. PostgreSQL and HAProxy run where the system puts them.
 */
const pinned = process.env.BENCH_PIN !== '0' && cpus().length >= 2 && existsSync('/usr/bin/taskset');
const serverCore = 0;
const generatorCore = cpus().length - 1;
const pin = (child: ChildProcess, core: number): void => {
  if (pinned) spawnSync('/usr/bin/taskset', ['-a', '-p', '-c', String(core), String(child.pid)], { stdio: 'ignore' });
};

const startChild = (file: string, args: string[]): Promise<{ child: ChildProcess; port: number }> =>
  new Promise((resolve, reject) => {
    // The V8 flag `npm start` gives the server (package.json).
    const child = fork(file, args, { execArgv: ['--max-semi-space-size=32', '--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    pin(child, serverCore);
    child.once('message', (m: { port: number }) => resolve({ child, port: m.port }));
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
  });

const ask = <T>(child: ChildProcess, m: string): Promise<T> =>
  new Promise((resolve) => {
    child.once('message', (r: Record<string, T>) => resolve(Object.values(r)[0]!));
    child.send(m);
  });

const stop = async (child: ChildProcess) => {
  child.removeAllListeners('exit');
  child.send('stop');
  await new Promise((resolve) => child.once('exit', resolve));
};

/** Every player's first call (init data verified, profile read), then nothing measured. */
const warmUp = (port: number) => {
  let n = 0;
  return autocannon({
    url: `http://127.0.0.1:${port}${apiPrefix}/click`,
    connections: 100,
    amount: players,
    requests: [{ method: 'POST', setupRequest: (req: Record<string, unknown>) => ({ ...req, headers: { 'content-type': 'application/json', authorization: auths[n % players]! }, body: `{"click":1,"batchId":"w${n++}"}` }) }],
  });
};

/** The server's 200s a second under a closed loop of `connections` players. */
const closedLoop = async (port: number, connections: number): Promise<number> => (await runGenerator('closed', port, connections, `p${connections}-`, peakS)).ok.length / peakS;

/** One step of the ramp: what the server answers 200 a second, and whether it kept up (answers within 1 s, ≥ 95 % served). */
interface RampStep {
  rate: number;
  goodput: number;
  keptUp: boolean;
}

/**
 * The peak: the most batches a second the server answers 200 while it keeps up. The group commit
 * serves more the more requests wait together, so a closed loop of a few players (each waiting
 * for its answer) understates it: starting from the better closed loop (the shedding floor's
 * players, or peakConnections'), the rate offered open-loop grows by half for peakS at a time until
 * the server no longer keeps up (serves under 90 %, or answers more than one in a thousand late); the peak is the best goodput it showed while keeping up.
 */
const measurePeak = async (port: number): Promise<{ peak: number; closed: number; ramp: RampStep[] }> => {
  const closed = Math.max(await closedLoop(port, shedConfig.SHED_IN_FLIGHT_FLOOR), await closedLoop(port, peakConnections));
  const ramp: RampStep[] = [];
  for (let rate = Math.round(closed), step = 0; step < 8; rate = Math.round(rate * 1.5), step++) {
    const g = await runGenerator('open', port, rate, `r${step}-`, peakS);
    const goodput = g.ok.length / peakS;
    // Kept up: at least 90 % served, and at most one answer in a thousand later than 1 s.
    const keptUp = g.errors === 0 && g.unanswered === 0 && g.slow <= g.sent / 1_000 && goodput >= 0.9 * rate;
    ramp.push({ rate, goodput, keptUp });
    console.log(`bench:overload: ramp ${rate}/s → ${Math.round(goodput)} answered 200 a second, ${g.slow} later than 1 s${keptUp ? '' : ' (did not keep up)'}`);
    if (!keptUp) break;
  }
  const peak = Math.max(closed, ...ramp.filter((r) => r.keptUp).map((r) => r.goodput));
  return { peak, closed, ramp };
};

/** /livez every 200 ms on a connection of its own while `running`: each answer's time, or Infinity for none within 5 s. */
const probeLivez = (port: number, running: () => boolean): Promise<number[]> =>
  new Promise((resolve) => {
    const times: number[] = [];
    const once = () => {
      if (!running()) return resolve(times);
      const t0 = performance.now();
      let done = false;
      const finish = (ms: number) => {
        if (done) return;
        done = true;
        times.push(ms);
        setTimeout(once, 200);
      };
      const req = request({ host: '127.0.0.1', port, path: '/livez', timeout: 5_000 }, (res) => {
        res.resume();
        res.on('end', () => finish(res.statusCode === 200 ? performance.now() - t0 : Infinity));
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => finish(Infinity));
      req.end();
    };
    once();
  });

/** What the generator reports of one phase (see generate()). */
interface Generated {
  sent: number;
  errors: number;
  unanswered: number;
  /** The most connections the generator had open at once. */
  connectionsOpened: number;
  cpuMs: number;
  ok: number[];
  refused: number[];
  otherStatus: Record<string, number>;
  /** batchId → taps accepted, from the 200s. */
  answered: [string, number][];
  overloadedBodies: number;
  slow: number;
}

const runGenerator = (mode: 'open' | 'closed', port: number, load: number, prefix: string, seconds: number = durationS): Promise<Generated> =>
  new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--generate', mode, String(port), String(load), prefix, String(seconds)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    pin(child, generatorCore);
    child.once('message', (m: { result: Generated }) => resolve(m.result));
    child.once('exit', (code) => code !== 0 && reject(new Error(`generator exited with ${code}`)));
  });

const quantile = (sorted: readonly number[], q: number): number => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);

/** The bucket bound under which a quantile of the server's own times fell, between two scrapes of the cumulative buckets. */
const bucketQuantile = (before: Record<string, number>, after: Record<string, number>, q: number): number => {
  const buckets = Object.entries(after)
    .map(([le, n]) => [le === '+Inf' ? Infinity : Number(le) * 1000, n - (before[le] ?? 0)] as const)
    .sort((a, b) => a[0] - b[0]);
  const total = buckets.at(-1)?.[1] ?? 0;
  return buckets.find(([, n]) => n >= q * total)?.[0] ?? NaN;
};

const main = async () => {
  const loadBefore = loadavg()[0]!;
  const { child, port } = await startChild(fileURLToPath(import.meta.url), ['--serve']);
  let exited: number | null | undefined;
  child.on('exit', (code) => (exited = code));
  await warmUp(port);
  console.log(`bench:overload: the peak (${peakS} s at ${shedConfig.SHED_IN_FLIGHT_FLOOR} and at ${peakConnections} connections, closed loop)…`);
  const { peak, closed, ramp } = await measurePeak(port);
  console.log(`bench:overload: peak ${Math.round(peak)} batches/s`);

  const proxy = startHaproxy(port);
  const before = await ask<number>(child, 'total');
  const acked = new Map<string, number>();
  const rows: string[] = [];
  const checks: [string, boolean][] = [];
  /** One phase: factor × peak offered open-loop to `target` (the server, or HAProxy in front of it). */
  const phase = async (factor: number, target: number, label: string, prefix: string, goodputTarget: number | undefined) => {
    const rate = Math.round(peak * factor);
    console.log(`bench:overload: ${label} = ${rate}/s over ${connections} connections for ${durationS} s…`);
    const shedBefore = await ask<Record<string, number>>(child, 'shed');
    const servedBefore = await ask<Record<string, number>>(child, 'served');
    const serverCpuBefore = processCpuMs(child.pid!);
    const pgCpuBefore = postgresCpuMs();
    const proxyCpuBefore = proxy !== undefined ? processCpuMs(proxy.pid) : 0;
    let running = true;
    const livez = probeLivez(port, () => running);
    const g = await runGenerator('open', target, rate, prefix);
    running = false;
    const livezTimes = await livez;
    const serverCpuMs = processCpuMs(child.pid!) - serverCpuBefore;
    const pgCpuMs = postgresCpuMs() - pgCpuBefore;
    const proxyCores = proxy !== undefined && target === proxy.port ? ` + ${((processCpuMs(proxy.pid) - proxyCpuBefore) / (durationS * 1000)).toFixed(2)} HAProxy` : '';
    const shedAfter = await ask<Record<string, number>>(child, 'shed');
    const servedAfter = await ask<Record<string, number>>(child, 'served');
    for (const [id, n] of g.answered) acked.set(id, n);
    const ok = [...g.ok].sort((a, b) => a - b);
    const refused = [...g.refused].sort((a, b) => a - b);
    const others = Object.entries(g.otherStatus).map(([st, n]) => `${st}: ${n}`).join(', ') || 'none';
    const goodput = ok.length / durationS;
    const serverP50 = bucketQuantile(servedBefore, servedAfter, 0.5);
    const serverP99 = bucketQuantile(servedBefore, servedAfter, 0.99);
    const livezLate = livezTimes.filter((ms) => ms > answerBoundMs).length;
    const livezMax = Math.max(0, ...livezTimes);
    const shedBy = Object.entries(shedAfter)
      .map(([reason, n]) => [reason, n - (shedBefore[reason] ?? 0)] as const)
      .filter(([, n]) => n > 0)
      .map(([reason, n]) => `${reason} ${n}`)
      .join(', ');
    const fmt = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(1) : 'none');
    console.log({ label, rate, sent: g.sent, ok: ok.length, refused: refused.length, others, errors: g.errors, unanswered: g.unanswered, slow: g.slow, goodput, serverP50, serverP99, livezLate, livezMax, generatorCores: g.cpuMs / (durationS * 1000), shedBy });
    rows.push(
      `| ${label} | ${rate} | ${Math.round(g.sent / durationS)} | ${g.connectionsOpened} | **${Math.round(goodput)}** (${Math.round((goodput / peak) * 100)} %) | ${refused.length} (${g.overloadedBodies}) | ${others} / ${g.errors} / ${g.unanswered} | ${fmt(quantile(ok, 0.5))} / ${fmt(quantile(ok, 0.99))} | ≤ ${serverP50} / **≤ ${serverP99}** | ${fmt(refused.at(-1) ?? 0)} | ${g.slow} | ${livezTimes.length} / ${livezLate} / ${fmt(livezMax)} | ${(serverCpuMs / (durationS * 1000)).toFixed(2)} / ${(pgCpuMs / (durationS * 1000)).toFixed(2)} / ${(g.cpuMs / (durationS * 1000)).toFixed(2)}${proxyCores} | ${shedBy || 'none'} |`,
    );
    if (goodputTarget !== undefined) checks.push([`goodput at ${label} ≥ ${goodputTarget * 100} % of the peak (${Math.round((goodput / peak) * 100)} %)`, goodput >= goodputTarget * peak]);
    checks.push([`at ${label}, /livez answered within 1 s every time (${livezLate} of ${livezTimes.length} late or silent; slowest ${fmt(livezMax)} ms)`, livezLate === 0 && livezTimes.length > 0]);
    // Behind HAProxy only the goodput is a target: a request HAProxy holds in its queue is answered after up to 1 s by design.
    if (target === port) checks.push([`at ${label}, every answer within 1 s of when it was due and every request answered (${g.slow} slower, ${g.errors} broken, ${g.unanswered} unanswered, other statuses ${others})`, g.slow === 0 && g.errors === 0 && g.unanswered === 0 && others === 'none']);
    checks.push([`at ${label}, the p99 of the 200s ≤ ${p99TargetMs} ms on the server's own histogram (≤ ${serverP99} ms)`, serverP99 <= p99TargetMs]);
  };
  for (const factor of factors) await phase(factor, port, `${factor}×`, `m${factor}x`, goodputTargets[factor]);
  // The same 4× through HAProxy's API port as ops/ha/haproxy.cfg sets it up (maxconn and queue).
  if (proxy !== undefined) await phase(4, proxy.port, '4× behind HAProxy', 'm4h', behindProxyTarget);
  proxy?.stop();
  // Requests cut off at the end may still commit: let them land before counting.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const up = exited === undefined;
  const after = up ? await ask<number>(child, 'total') : NaN;
  const stored = up ? await ask<Record<string, number>>(child, 'batches') : {};
  if (up) await stop(child);
  const loadAfter = loadavg()[0]!;
  const { acceptedInAnswers, lost, storedInBatches } = tallyAcknowledged(acked, stored);
  const doubled = after - before - storedInBatches;
  checks.unshift([`the process stayed up`, up]);
  checks.push([`no acknowledged tap lost (${lost} of ${acceptedInAnswers}) or counted twice (${doubled})`, lost === 0 && doubled === 0]);
  for (const [text, met] of checks) console.log(`${met ? 'met' : 'NOT met'}: ${text}`);

  writeSection(
    'overload',
    `## Overload: POST /click open-loop at ${factors.map((f) => `${f}×`).join(' and ')} the peak (\`npm run bench:overload\`)

The real app (createApp with load shedding, metrics and the production logger on, as \`npm start\` runs it; SHED_* ${Object.keys(shedEnv).length === 0 ? 'defaults' : `set as ${Object.entries(shedEnv).map(([k, v]) => `${k}=${v}`).join(', ')}`}: floor ${shedConfig.SHED_IN_FLIGHT_FLOOR} and bound ${shedConfig.SHED_MAX_IN_FLIGHT} requests in flight, a queue of what it answers in ${shedConfig.SHED_QUEUE_DELAY_MS} ms, event-loop delay ${shedConfig.SHED_EVENT_LOOP_DELAY_MS} ms, heap ${Math.round(shedConfig.SHED_HEAP_USED_RATIO * 100)} %) on PostgreSQL (the shared server), in a child process, ${players.toLocaleString('en')} players, ${tapsPerBatch} taps a batch, unique batchIds.

- **The peak, measured first in the same run by the same generator:** the most batches a second answered 200 while the server kept up (at least 90 % of the offered rate served, at most one answer in a thousand later than 1 s). The better closed loop of ${shedConfig.SHED_IN_FLIGHT_FLOOR} players (the shedding floor) and of ${peakConnections}, ${peakS} s each, served ${Math.round(closed)}/s; the group commit serves more the more requests wait together, so the rate offered open-loop then grew by half every ${peakS} s: ${ramp.map((r) => `${r.rate} → ${Math.round(r.goodput)}${r.keptUp ? '' : ' (did not keep up)'}`).join(', ')}. **Peak: ${Math.round(peak)} batches/s.**
- **Then ${durationS} s at each factor**, open loop: requests sent on a schedule by a generator in its own process (bench/open-loop.ts), never waiting for answers, one request at a time a connection as a browser sends them (${connections} keep-alive connections to start with, a new one for a request due while all wait; pipelining would hide requests behind others on their connection, out of sight of the shedding and of a proxy's queue); an answer's time runs from when its request was due. Then the same 4× through HAProxy's API port with ops/ha/haproxy.cfg's settings (128 requests at a time to the process, a queue of 1 s; judged on goodput alone, since a request HAProxy holds in its queue is answered after up to 1 s by design). /livez is asked every 200 ms on a connection of its own.
- The server's own time of the 200s is money_http_request_duration_seconds over the phase, given as the bucket the quantile fell under. CPU is in cores over the phase: the server process, every postgres process on the machine, and the generator.
- Machine: ${cpus().length} cores${pinned ? `; the server on core ${serverCore} and the generator on core ${generatorCore} (taskset), PostgreSQL and HAProxy where the system puts them` : ''}, 1-minute load average ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after (other work shares the cores).

| offered | aimed /s | sent /s | connections | goodput: 200s /s (of the peak) | 503 (\`overloaded\`) | other / broken / unanswered | 200s p50 / p99 ms, generator | 200s p50 / p99 ms, server's own | 503s max ms | answers over 1 s | /livez asked / late / slowest ms | CPU cores: server / PostgreSQL / generator | shed by reason |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

${checks.map(([text, met]) => `- ${met ? 'Met' : '**NOT met**'}: ${text}.`).join('\n')}`,
  );
};

if (process.argv.includes('--serve')) void serve();
else if (process.argv.includes('--generate')) {
  const [mode, port, load, prefix, seconds] = process.argv.slice(process.argv.indexOf('--generate') + 1);
  void generate(mode === 'closed' ? 'closed' : 'open', Number(port), Number(load), prefix!, Number(seconds));
} else
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
