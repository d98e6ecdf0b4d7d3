/**
 * Load shedding by our own demand (docs/faults.md "Overload"), over real HTTP: the gate sits on the
 * HTTP server in front of Fastify, so `inject` never meets it.
 * - Below SHED_IN_FLIGHT_FLOOR nothing is shed, whatever the samples say.
 * - At SHED_MAX_IN_FLIGHT every further API request is shed, with one prebuilt 503 and no log line.
 * - In between, a request is shed when the queue is longer than the process answers in
 *   SHED_QUEUE_DELAY_MS, or while the last sample was past a bound.
 * - The app shell, static files, /livez, /readyz and /metrics are never shed.
 * A request is held in flight by sending its headers and withholding its body: it has been admitted
 * and waits, as a request waiting for the database does.
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiPrefix } from '../../engine/wire/api-types.ts';
import { refusalMessage } from '../../engine/wire/refusals.ts';
import { createApp } from '../../server/app.ts';
import { manualClock } from '../../server/core/clock.ts';
import { loadConfig } from '../../server/background/settings.ts';
import type { Db } from '../../server/core/db/db.ts';
import { createLoadShedding, type LoadShedding } from '../../server/core/load-shedding.ts';
import { signInitData } from '../../server/players/init-data.ts';
import { startCpuHogs, type CpuHogs } from '../cpu-hogs.ts';
import { backends, botToken, openTestDb, startMs, testEnv } from './harness.ts';

const token = 'shed-test-token-0123456789abcdef';
const overloadedBody = { error: 'Service Unavailable', message: refusalMessage('overloaded'), code: 'overloaded' };

const until = async (what: () => boolean): Promise<void> => {
  while (!what()) await new Promise((r) => setTimeout(r, 5));
};

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request on its own connection; `hold` sends the headers and withholds the body until release(). */
const send = (base: string, method: string, path: string, opts: { headers?: Record<string, string>; body?: string; hold?: boolean } = {}) => {
  let req: ClientRequest;
  const answer = new Promise<Answer>((resolve, reject) => {
    req = httpRequest(`${base}${path}`, { method, agent: false, headers: { ...(opts.body !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(opts.body)) } : {}), ...opts.headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    if (opts.hold === true) req.flushHeaders();
    else req.end(opts.body);
  });
  return { answer, release: () => req.end(opts.body) };
};

const clickBody = (batchId: string, taps = 2) => JSON.stringify({ click: taps, batchId, seq: 1 });
const authFor = (userId: number) => ({ authorization: `tma ${signInitData(botToken, { user: { id: userId, first_name: 'Shed' } }, startMs)}` });

/** Until the held request has been admitted: a cheap API read is shed from then on (a wait, not an assertion). */
const untilHeld = async (base: string): Promise<void> => {
  while ((await send(base, 'GET', `${apiPrefix}/openapi.json`).answer).status !== 503) await new Promise((r) => setTimeout(r, 5));
};

describe.each(backends)('load shedding in the real app (%s)', (backend) => {
  let db: Db;
  let app: FastifyInstance;
  let base: string;
  // The queue's bound at 1: one click held in flight fills it. No sampled bound, so only demand sheds.
  const env = { METRICS_TOKEN: token, SHED_IN_FLIGHT_FLOOR: '1', SHED_MAX_IN_FLIGHT: '1', SHED_EVENT_LOOP_DELAY_MS: '0', SHED_QUEUE_DELAY_MS: '0', SHED_HEAP_USED_RATIO: '0', SHED_RETRY_AFTER_S: '3' };
  beforeAll(async () => {
    const config = loadConfig(testEnv(backend, env));
    db = await openTestDb(config, backend);
    app = await createApp({ db, config, clock: manualClock(startMs), loadShedding: true });
    // The app shell and a static file, as the web plugin serves them.
    app.get('/app', async (_req, reply) => reply.type('text/html').send('<!doctype html><title>MONEY</title>'));
    app.get('/assets/index.js', async (_req, reply) => reply.type('text/javascript').send('export {}'));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });
  const stored = async (batchId: string) => (await db.query('SELECT 1 FROM click_batches WHERE batch_id = $1', [batchId])).rows.length;

  it('sheds a click past the bound of requests in flight with one prebuilt 503, stores nothing, and serves the held one', async () => {
    const userId = 7_100_000_001;
    const held = send(base, 'POST', `${apiPrefix}/click`, { headers: authFor(userId), body: clickBody('held-1'), hold: true });
    await untilHeld(base);
    const shed = await send(base, 'POST', `${apiPrefix}/click`, { headers: authFor(userId + 1), body: clickBody('shed-1') }).answer;
    expect(shed.status).toBe(503);
    expect(shed.headers['retry-after']).toBe('3');
    expect(JSON.parse(shed.body)).toEqual(overloadedBody);
    expect(await stored('shed-1')).toBe(0);
    expect((await db.query('SELECT 1 FROM users WHERE id = $1', [userId + 1])).rows.length).toBe(0);
    // A malformed body is shed too: it is never read.
    expect((await send(base, 'POST', `${apiPrefix}/click`, { body: '{"click":' }).answer).status).toBe(503);

    // Never shed: the probes, the scrape, the app shell and a static file.
    expect((await send(base, 'GET', '/livez').answer).status).toBe(200);
    const ready = await send(base, 'GET', '/readyz').answer;
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toEqual({ ok: true });
    expect((await send(base, 'GET', '/app').answer).status).toBe(200);
    expect((await send(base, 'GET', '/assets/index.js').answer).status).toBe(200);
    const metrics = await send(base, 'GET', '/metrics', { headers: { authorization: `Bearer ${token}` } }).answer;
    expect(metrics.status).toBe(200);

    held.release();
    const served = await held.answer;
    expect(served.status).toBe(200);
    expect(JSON.parse(served.body)).toMatchObject({ batchId: 'held-1', accepted: 2 });
    // The queue is empty again: the next click is let in.
    const after = await send(base, 'POST', `${apiPrefix}/click`, { headers: authFor(userId + 2), body: clickBody('after-1') }).answer;
    expect(after.status).toBe(200);
    expect(await stored('after-1')).toBe(1);
  });

  it('counts the shed requests by reason in /metrics once a sample has passed', async () => {
    const count = async () => {
      const m = await send(base, 'GET', '/metrics', { headers: { authorization: `Bearer ${token}` } }).answer;
      return Number(/^money_http_shed_total\{reason="inFlight"\} (\d+)$/m.exec(m.body)?.[1]);
    };
    const before = await count();
    const held = send(base, 'POST', `${apiPrefix}/click`, { headers: authFor(7_100_000_010), body: clickBody('held-2'), hold: true });
    await untilHeld(base);
    // The wait ends on its one refusal: once a sample has counted it, it is in `settled`.
    let settled = await count();
    while (settled === before) {
      await new Promise((r) => setTimeout(r, 50));
      settled = await count();
    }
    expect(settled).toBeGreaterThan(before);
    expect((await send(base, 'GET', `${apiPrefix}/status`, { headers: authFor(7_100_000_011) }).answer).status).toBe(503);
    held.release();
    expect((await held.answer).status).toBe(200);
    let now = settled;
    while (now === settled) {
      await new Promise((r) => setTimeout(r, 50));
      now = await count();
    }
    expect(now).toBe(settled + 1);
  });
});

describe('load shedding: the gate', () => {
  let app: FastifyInstance | undefined;
  let shedding: LoadShedding;
  const logged: string[] = [];
  let holdMs = 0;

  const start = async (env: Record<string, string>) => {
    const config = loadConfig(testEnv('pglite', { SHED_EVENT_LOOP_DELAY_MS: '0', SHED_HEAP_USED_RATIO: '0', SHED_QUEUE_DELAY_MS: '0', SHED_SAMPLE_MS: '50', ...env }));
    shedding = createLoadShedding(config);
    app = Fastify({ serverFactory: shedding.serverFactory });
    shedding.start({ warn: (_obj, msg) => logged.push(msg) });
    // A route whose answers wait, as clicks wait for their group's commit when the database lags.
    app.get(`${apiPrefix}/wait`, async () => {
      await new Promise((r) => setTimeout(r, holdMs));
      return { ok: true };
    });
    app.get('/assets/x.js', async () => 'ok');
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  };
  afterEach(async () => {
    shedding?.stop();
    await app?.close();
    app = undefined;
    logged.length = 0;
    holdMs = 0;
  });

  it('above the floor, sheds once the queue is longer than the process has shown it answers in SHED_QUEUE_DELAY_MS, and lets requests in again once it is gone', async () => {
    const base = await start({ SHED_IN_FLIGHT_FLOOR: '3', SHED_MAX_IN_FLIGHT: '100', SHED_QUEUE_DELAY_MS: '20', SHED_RETRY_AFTER_S: '7' });
    // Three requests waiting (the floor), and nothing answered yet: the queue's limit is the floor.
    holdMs = 1_500;
    const waiting = Array.from({ length: 3 }, () => send(base, 'GET', `${apiPrefix}/wait`).answer);
    await until(() => shedding.inFlight() === 3);
    expect(shedding.queueLimit()).toBe(3);
    const shed = await send(base, 'GET', `${apiPrefix}/wait`).answer;
    expect(shed.status).toBe(503);
    expect(shed.headers['retry-after']).toBe('7');
    expect(JSON.parse(shed.body)).toEqual(overloadedBody);
    // A static file is never shed.
    expect((await send(base, 'GET', '/assets/x.js').answer).status).toBe(200);
    expect((await Promise.all(waiting)).map((r) => r.status)).toEqual([200, 200, 200]);
    // The demand has fallen below the floor: requests are let in again.
    holdMs = 0;
    expect((await send(base, 'GET', `${apiPrefix}/wait`).answer).status).toBe(200);
  });

  it('lets the queue grow with the answers a second the process has shown it gives', async () => {
    const base = await start({ SHED_IN_FLIGHT_FLOOR: '2', SHED_MAX_IN_FLIGHT: '100', SHED_QUEUE_DELAY_MS: '500' });
    // Quick answers, two at a time (below the floor): the samples see what the process answers.
    for (let i = 0; i < 20 && shedding.queueLimit() <= 6; i++) await Promise.all([0, 1].map(() => send(base, 'GET', `${apiPrefix}/wait`).answer));
    await until(() => shedding.queueLimit() > 6);
    // Six waiting at once, three times the floor, fit in the queue it has shown it can answer.
    holdMs = 300;
    const six = await Promise.all(Array.from({ length: 6 }, () => send(base, 'GET', `${apiPrefix}/wait`).answer));
    expect(six.map((r) => r.status)).toEqual(Array(6).fill(200));
  });

  it('never sheds below the floor, even with the event loop blocked past its bound', async () => {
    const base = await start({ SHED_IN_FLIGHT_FLOOR: '4', SHED_EVENT_LOOP_DELAY_MS: '5' });
    // A neighbour (here: this very loop) holds the CPU: the loop's delay is far past 5 ms.
    const blockUntil = Date.now() + 300;
    while (Date.now() < blockUntil);
    await until(() => shedding.pressure() === 'eventLoopDelay');
    const answers = await Promise.all(Array.from({ length: 3 }, () => send(base, 'GET', `${apiPrefix}/wait`).answer));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it('logs no line per shed request: one summary a log interval', async () => {
    const base = await start({ SHED_IN_FLIGHT_FLOOR: '1', SHED_MAX_IN_FLIGHT: '1', SHED_LOG_INTERVAL_MS: '100' });
    holdMs = 1_000;
    const held = send(base, 'GET', `${apiPrefix}/wait`).answer;
    await until(() => shedding.inFlight() === 1);
    const shed = await Promise.all(Array.from({ length: 20 }, () => send(base, 'GET', `${apiPrefix}/wait`).answer));
    expect(shed.map((r) => r.status)).toEqual(Array(20).fill(503));
    const counted = () => logged.reduce((n, line) => n + Number(/^overload: shed (\d+) API requests in the last 0\.1 s$/.exec(line)?.[1] ?? NaN), 0);
    await until(() => counted() >= 20);
    expect(counted()).toBe(20);
    expect(logged.length).toBeLessThan(20);
    expect((await held).status).toBe(200);
  });
});

describe.each(backends)('load shedding with the defaults players meet, beside a busy neighbour (%s)', (backend) => {
  let db: Db;
  let app: FastifyInstance;
  let base: string;
  let hogs: CpuHogs;
  beforeAll(async () => {
    // No SHED_* setting: the defaults, from a fresh start, with a process spinning on the CPU.
    hogs = startCpuHogs(1);
    const config = loadConfig(testEnv(backend));
    db = await openTestDb(config, backend);
    app = await createApp({ db, config, clock: manualClock(startMs), loadShedding: true });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  });
  afterAll(async () => {
    await hogs?.stop();
    await app?.close();
    await db?.close();
  });

  it("answers a player's first burst of calls, all at once, and a lone call, none of them shed", async () => {
    const auth = authFor(7_100_000_100);
    const paths = ['', '/tasks?type=DAILY_TASK', '/tasks?type=INVITE_TASK', '/leaderboard', '/get-ref-users', '/get-my-refLink'];
    // 44 calls at once from one client, below the floor of requests in flight.
    const burst = await Promise.all(Array.from({ length: 28 }, (_, i) => send(base, 'GET', `${apiPrefix}${paths[i % paths.length]}`, { headers: auth }).answer));
    const clicks = await Promise.all(Array.from({ length: 16 }, (_, i) => send(base, 'POST', `${apiPrefix}/click`, { headers: auth, body: clickBody(`burst-${i}`, 1) }).answer));
    expect([...burst, ...clicks].filter((r) => r.status !== 200).map((r) => `${r.status} ${r.body}`)).toEqual([]);
    expect((await send(base, 'GET', `${apiPrefix}/openapi.json`).answer).status).toBe(200);
  });
});

describe("HAProxy's queue in front (ops/ha/haproxy.cfg)", () => {
  const template = readFileSync(fileURLToPath(new URL('../../ops/ha/haproxy.cfg', import.meta.url)), 'utf8');

  it('answers a request left in its queue with the body and Retry-After of a request MONEY sheds', () => {
    const line = template.split('\n').find((l) => l.trim().startsWith('http-error status 503'));
    expect(line).toBeDefined();
    const body = /string '(.*)'$/.exec(line!.trim())?.[1];
    expect(JSON.parse(body!)).toEqual(overloadedBody);
    expect(line).toMatch(/content-type application\/json hdr retry-after 1 /);
  });

  it('sends each process more requests at a time than its shedding floor and fewer than its bound', () => {
    const maxconn = Number(/default-server .*\bmaxconn (\d+)/.exec(template.slice(template.indexOf('listen money_api')))?.[1]);
    const config = loadConfig({});
    expect(maxconn).toBeGreaterThan(config.SHED_IN_FLIGHT_FLOOR);
    expect(maxconn).toBeLessThan(config.SHED_MAX_IN_FLIGHT);
  });
});
