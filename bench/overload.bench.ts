/**
 * `npm run bench:overload`: POST /click offered at ~4× what the in-memory route serves at its peak,
 * for 60 s, against the real app on PostgreSQL with load shedding on as `npm start` runs it
 * (docs/faults.md "Overload"; the SHED_* defaults). Checks that the process stays up, that every
 * answer is a 200 or a 503 within 1 s, that no acknowledged tap is lost or counted twice, and
 * reports the p99 of the 200s (target < 100 ms). Writes the `overload` section of bench/RESULTS.md.
 *
 * The memory route's peak is measured first, in the same run, by bench/server.bench.ts's own
 * in-memory target (its `--serve memory` child), with its 100 connections. The overload then comes
 * from BENCH_OVERLOAD_CONNECTIONS connections sharing an open-loop rate of 4× that peak
 * (autocannon's overallRate): a connection sends its next request at its turn when its last one
 * has been answered. One autocannon process on a 2-core machine cannot offer 4× the memory route,
 * so the section states the rate it actually offered beside the one it aimed at.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { apiPrefix } from '../engine/api-types.ts';
import { createApp } from '../server/app.ts';
import { systemClock } from '../server/core/clock.ts';
import { loadConfig } from '../server/core/config/config.ts';
import { openDb } from '../server/core/db/db.ts';
import { metrics } from '../server/core/metrics.ts';
import { signInitData } from '../server/players/init-data.ts';
import { botToken, firstId, players, seedPlayers, totalClicks } from './click-players.ts';
import { autocannon, benchPgUrl, tallyAcknowledged } from './load.ts';
import { writeSection } from './results.ts';

const durationS = Number(process.env.BENCH_DURATION_S ?? 60);
const factor = Number(process.env.BENCH_OVERLOAD_FACTOR ?? 4);
const connections = Number(process.env.BENCH_OVERLOAD_CONNECTIONS ?? 1_000);
const peakS = Number(process.env.BENCH_PEAK_S ?? 5);
const answerBoundMs = 1_000;
const p99TargetMs = 100;
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
  const app = await createApp({ db, config, clock: systemClock, loadShedding: true });
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

// ---------------------------------------------------------------- load generator (parent)

const startChild = (file: string, args: string[]): Promise<{ child: ChildProcess; port: number }> =>
  new Promise((resolve, reject) => {
    // The V8 flag `npm start` gives the server (package.json).
    const child = fork(file, args, { execArgv: ['--max-semi-space-size=32', '--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
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

const auths = Array.from({ length: players }, (_, i) => `tma ${signInitData(botToken, { user: { id: firstId + i, first_name: 'Bench', username: `bench${firstId + i}` } })}`);

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

/** The in-memory route's batches/s, as bench:server measures it (100 connections, closed loop). */
const memoryPeak = async (): Promise<number> => {
  const { child, port } = await startChild(fileURLToPath(new URL('./server.bench.ts', import.meta.url)), ['--serve', 'memory']);
  await warmUp(port);
  let seq = 0;
  const r = await autocannon({
    url: `http://127.0.0.1:${port}${apiPrefix}/click`,
    connections: 100,
    duration: peakS,
    requests: [{ method: 'POST', setupRequest: (req: Record<string, unknown>) => ({ ...req, headers: { 'content-type': 'application/json', authorization: auths[seq % players]! }, body: `{"click":${tapsPerBatch},"batchId":"p${seq++}"}` }) }],
  });
  await stop(child);
  return r.requests.average;
};

const quantile = (sorted: readonly number[], q: number): number => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);

const main = async () => {
  const loadBefore = loadavg()[0]!;
  console.log(`bench:overload: the in-memory route's peak (${peakS} s, 100 connections)…`);
  const peak = await memoryPeak();
  const rate = Math.round(peak * factor);
  console.log(`bench:overload: peak ${Math.round(peak)} batches/s; offering ${rate}/s over ${connections} connections for ${durationS} s…`);

  const { child, port } = await startChild(fileURLToPath(import.meta.url), ['--serve']);
  let exited: number | null | undefined;
  child.on('exit', (code) => (exited = code));
  await warmUp(port);
  const before = await ask<number>(child, 'total');
  const shedBefore = await ask<Record<string, number>>(child, 'shed');
  const servedBefore = await ask<Record<string, number>>(child, 'served');

  let seq = 0;
  const ok: number[] = [];
  const refused: number[] = [];
  const otherStatus = new Map<number, number>();
  const answered = new Map<string, number>();
  let overloadedBodies = 0;
  let slow = 0;
  const r = await autocannon({
    url: `http://127.0.0.1:${port}${apiPrefix}/click`,
    connections,
    overallRate: rate,
    duration: durationS,
    // A request still unanswered after 10 s is an error (none may be past 1 s).
    timeout: 10,
    requests: [
      {
        method: 'POST',
        setupRequest: (req: Record<string, unknown>, ctx: { sentAt?: number }) => {
          const n = seq++;
          ctx.sentAt = performance.now();
          return { ...req, headers: { 'content-type': 'application/json', authorization: auths[n % players]! }, body: `{"click":${tapsPerBatch},"batchId":"m${n}","seq":${n}}` };
        },
        onResponse: (status: number, body: string, ctx: { sentAt?: number }) => {
          const ms = performance.now() - (ctx.sentAt ?? performance.now());
          if (ms > answerBoundMs) slow++;
          if (status === 200) {
            ok.push(ms);
            const m = /"batchId":"(m\d+)","accepted":(\d+)/.exec(body);
            if (m !== null) answered.set(m[1]!, Number(m[2]));
          } else if (status === 503) {
            refused.push(ms);
            if (body.includes('"code":"overloaded"')) overloadedBodies++;
          } else otherStatus.set(status, (otherStatus.get(status) ?? 0) + 1);
        },
      },
    ],
  });
  // Requests cut off at the end may still commit: let them land before counting.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const up = exited === undefined;
  const after = up ? await ask<number>(child, 'total') : NaN;
  const stored = up ? await ask<Record<string, number>>(child, 'batches') : {};
  const shedAfter = up ? await ask<Record<string, number>>(child, 'shed') : {};
  const servedAfter = up ? await ask<Record<string, number>>(child, 'served') : {};
  if (up) await stop(child);
  const loadAfter = loadavg()[0]!;

  const { acceptedInAnswers, lost, storedInBatches } = tallyAcknowledged(answered, stored);
  const doubled = after - before - storedInBatches;
  ok.sort((a, b) => a - b);
  refused.sort((a, b) => a - b);
  const answers = ok.length + refused.length + [...otherStatus.values()].reduce((a, b) => a + b, 0);
  const offered = answers / durationS;
  const shedBy = Object.entries(shedAfter)
    .map(([reason, n]) => [reason, n - (shedBefore[reason] ?? 0)] as const)
    .filter(([, n]) => n > 0)
    .map(([reason, n]) => `${reason} ${n}`)
    .join(', ');
  const p99 = quantile(ok, 0.99);
  // The bucket bound under which a quantile of the server's own times of the 200s fell, over the run.
  const servedBuckets = Object.entries(servedAfter)
    .map(([le, n]) => [le === '+Inf' ? Infinity : Number(le) * 1000, n - (servedBefore[le] ?? 0)] as const)
    .sort((a, b) => a[0] - b[0]);
  const servedQuantile = (q: number) => servedBuckets.find(([, n]) => n >= q * (servedBuckets.at(-1)?.[1] ?? 0))?.[0] ?? NaN;
  const serverP50 = servedQuantile(0.5);
  const serverP99 = servedQuantile(0.99);
  const maxAll = Math.max(ok.at(-1) ?? 0, refused.at(-1) ?? 0);
  const others = [...otherStatus].map(([s, n]) => `${s}: ${n}`).join(', ') || 'none';
  const result = { peak, rate, offered, ok: ok.length, refused: refused.length, overloadedBodies, others, errors: r.errors, timeouts: r.timeouts, slow, p50: quantile(ok, 0.5), p99, maxOk: ok.at(-1) ?? 0, maxRefused: refused.at(-1) ?? 0, serverP50, serverP99, up, lost, doubled, acceptedInAnswers, shedBy };
  console.log(result);

  const checks = [
    [`the process stayed up`, up],
    [`every answer a 200 or a 503 (other statuses: ${others}; errors ${r.errors}, timeouts ${r.timeouts})`, otherStatus.size === 0 && r.errors === 0 && r.timeouts === 0],
    [`every answer within ${answerBoundMs / 1000} s (${slow} slower; slowest ${Math.round(maxAll)} ms)`, slow === 0],
    [`no acknowledged tap lost (${lost}) or counted twice (${doubled})`, lost === 0 && doubled === 0],
    [`p99 of the 200s under ${p99TargetMs} ms (${p99.toFixed(1)} ms)`, p99 < p99TargetMs],
  ] as const;
  const fmt = (ms: number) => ms.toFixed(1);
  writeSection(
    'overload',
    `## Overload: POST /click at ${factor}× the in-memory peak (\`npm run bench:overload\`)

The real app (createApp with load shedding and metrics on, as \`npm start\` runs it with METRICS_TOKEN; SHED_* ${Object.keys(shedEnv).length === 0 ? 'defaults' : `set as ${Object.entries(shedEnv).map(([k, v]) => `${k}=${v}`).join(', ')}`}: event-loop delay ${shedConfig.SHED_EVENT_LOOP_DELAY_MS} ms, queue ${shedConfig.SHED_QUEUE_DELAY_MS} ms, heap ${Math.round(shedConfig.SHED_HEAP_USED_RATIO * 100)} %, sampled every ${shedConfig.SHED_SAMPLE_MS} ms) on PostgreSQL, in a child process. First the in-memory route's peak, measured in the same run as bench:server does (${peakS} s, 100 connections): **${Math.round(peak)} batches/s**. Then ${durationS} s of POST /click at an open-loop rate of ${factor}× that, **${rate}/s**, shared by ${connections} connections (autocannon's overallRate: a connection sends at its turn once its last request is answered), ${players.toLocaleString('en')} players, ${tapsPerBatch} taps a batch, unique batchIds. The generator offered **${Math.round(offered)} requests/s** (${(offered / peak).toFixed(2)}× the peak): one autocannon process on the same 2 cores as the server and PostgreSQL cannot offer more, and that is already more than the server can take. Latency is measured by the generator per request, from the request's setup to its answer, so it includes the wait in the generator's own 1,000 connections; beside it, the server's own time for the same 200s (money_http_request_duration_seconds over the run, from the request read to the answer sent), as the histogram bucket the quantile fell under. Machine: ${cpus().length} cores, 1-minute load average ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after (other work shares the cores).

| answers | 200 | 503 (\`overloaded\`) | other / errors / timeouts | 200s p50 / p99 / max ms | server's own time of the 200s, p50 / p99 ms | 503s max ms | answers over 1 s | taps accepted in answers | lost | counted twice | shed by bound |
|---|---|---|---|---|---|---|---|---|---|---|---|
| ${answers} | ${ok.length} | ${refused.length} (${overloadedBodies}) | ${others} / ${r.errors} / ${r.timeouts} | ${fmt(quantile(ok, 0.5))} / ${fmt(p99)} / ${fmt(ok.at(-1) ?? 0)} | ≤ ${serverP50} / ≤ ${serverP99} | ${fmt(refused.at(-1) ?? 0)} | ${slow} | ${acceptedInAnswers} | ${lost} | ${doubled} | ${shedBy || 'none'} |

${checks.map(([text, met]) => `- ${met ? 'Met' : '**NOT met**'}: ${text}.`).join('\n')}`,
  );
};

if (process.argv.includes('--serve')) void serve();
else
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
