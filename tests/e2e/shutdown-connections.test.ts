/**
 * SIGTERM answers every connection already accepted or queued, whatever the Bot API does
 * (docs/faults.md "Stopping"): 20 stops in a row of the real server process under click load, the
 * Bot API by turns unreachable, resetting every connection and hanging. Before each signal, fresh
 * connections are opened in its last 50 ms — some sending their request at once, some a slow body
 * in pieces, some starting their request only after the signal — beside streams of clicks on fresh
 * and on keep-alive connections. Every request on a connection opened before the signal gets an
 * HTTP answer (never a reset or a silent close), the process exits 0, and the database holds
 * exactly the clicks answered 200.
 */
import { Agent, request } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { apiPrefix } from '../../engine/wire/api-types.ts';
import { openDb } from '../../server/core/db/db.ts';
import { startFakeTelegram } from '../../server/dev/stand-ins/fake-telegram.ts';
import { advanceClock, apiAs, removeDir, serverNow, startServer, tempDataDir, testUser } from './harness.ts';

const token = '7000000001:AAtestTOKENtestTOKENtestTOKEN_abc';
const runs = Number(process.env.SHUTDOWN_RUNS ?? 20);
type BotApi = 'unreachable' | 'resetting' | 'hanging';
const botApiModes: BotApi[] = ['unreachable', 'resetting', 'hanging'];

/** An HTTP status, or how the connection failed. */
type Outcome = number | 'refused' | 'reset' | 'closed';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The Bot API as the server reaches it: a TCP relay to the fake Telegram that can turn
 * unreachable (its port closed), reset every connection, or hang (accept and never answer).
 */
const botApiRelay = async (upstreamUrl: string) => {
  const up = new URL(upstreamUrl);
  let mode: 'pass' | BotApi = 'pass';
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client)).on('error', () => {});
    if (mode === 'resetting') return void client.resetAndDestroy();
    if (mode === 'hanging') return void client.resume();
    const target = connect(Number(up.port), up.hostname);
    sockets.add(target);
    target.on('close', () => sockets.delete(target)).on('error', () => client.destroy());
    client.on('data', (d: Buffer) => mode === 'pass' && target.write(d));
    target.on('data', (d: Buffer) => mode === 'pass' && client.write(d));
    client.on('close', () => target.destroy());
    target.on('close', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    apiRoot: `http://127.0.0.1:${port}`,
    set: (next: BotApi) => {
      mode = next;
      if (next === 'unreachable') server.close();
      // Connections already open (the long poll) fail the same way.
      for (const s of sockets) if (next !== 'hanging') s.resetAndDestroy();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
};

/**
 * One POST, on its own connection (agent: false) or on a keep-alive agent's; `opened` is called
 * when its connection is established (at once for a reused one).
 */
const post = (base: string, auth: string, body: unknown, agent: Agent | false, opened: () => void): Promise<Outcome> =>
  new Promise((resolve) => {
    const req = request(new URL(`${base}${apiPrefix}/click`), { method: 'POST', agent, headers: { authorization: auth, 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve('reset'));
    });
    req.on('socket', (socket) => (socket.connecting ? socket.once('connect', opened) : opened()));
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED' ? 'refused' : 'reset'));
    req.end(JSON.stringify(body));
  });

/**
 * A click on a raw socket opened now: `whole` sends the request at once; `slow body` the headers
 * and half the body, the rest in two pieces 150 ms apart; `late start` nothing until 100 ms after
 * the connection opened. `connected` resolves once the connection is established (the server's
 * kernel has it, accepted or queued), `outcome` with the answer's status or how the socket ended.
 */
const rawClick = (port: number, auth: string, body: string, kind: 'whole' | 'slow body' | 'late start') => {
  let connected: () => void = () => {};
  const established = new Promise<void>((r) => (connected = r));
  const outcome = new Promise<Outcome>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const head = `POST ${apiPrefix}/click HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
    let text = '';
    let done = false;
    const finish = (o: Outcome) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve(o);
    };
    socket.on('data', (d: Buffer) => {
      text += d.toString();
      const m = /^HTTP\/1\.1 (\d{3}) /.exec(text);
      const length = /\r\ncontent-length: (\d+)\r\n/i.exec(text);
      const at = text.indexOf('\r\n\r\n');
      if (m && length && at >= 0 && Buffer.byteLength(text.slice(at + 4)) >= Number(length[1])) finish(Number(m[1]));
    });
    socket.on('error', (err: NodeJS.ErrnoException) => finish(err.code === 'ECONNREFUSED' ? 'refused' : 'reset'));
    socket.on('close', () => finish('closed'));
    socket.on('connect', () => {
      connected();
      const write = (s: string) => !done && socket.write(s);
      if (kind === 'whole') write(head + body);
      else if (kind === 'late start') setTimeout(() => write(head + body), 100);
      else {
        const half = Math.floor(body.length / 2);
        write(head + body.slice(0, half));
        setTimeout(() => write(body.slice(half, half + 3)), 150);
        setTimeout(() => write(body.slice(half + 3)), 300);
      }
    });
    // A connection that never opens ends the wait for it too (counted by its outcome).
    socket.on('close', connected);
  });
  return { established, outcome };
};

describe('SIGTERM answers every connection accepted or queued, whatever the Bot API does', () => {
  const dataDir = tempDataDir();
  afterAll(() => removeDir(dataDir));

  it(`${runs} stops in a row: every connection opened before the signal is answered, exit 0, exactly the answered clicks stored`, async () => {
    const failures: string[] = [];
    for (let run = 0; run < runs; run++) {
      const mode = botApiModes[run % botApiModes.length]!;
      const telegram = await startFakeTelegram(token);
      const relay = await botApiRelay(telegram.apiRoot);
      const server = await startServer({ dataDir, env: { BOT_TOKEN: token, BOT_API_ROOT: relay.apiRoot } });
      const agents = [0, 1].map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
      const outcomes: { batchId: string; o: Outcome; beforeSignal: boolean; how: string }[] = [];
      try {
        while (!/polling/.test(server.output())) await sleep(50);
        relay.set(mode);
        const user = testUser(900 + run);
        await apiAs(server, user, await serverNow(server)).status();
        await advanceClock(server, 60_000);
        const auth = apiAs(server, user, await serverNow(server)).auth;
        const port = Number(new URL(server.base).port);

        let signalled = false;
        let seq = 0;
        const nextBatch = () => ({ batchId: `conn-${run}-${++seq}`, seq });
        const stream = async (agent: Agent | false) => {
          for (;;) {
            const { batchId, seq: s } = nextBatch();
            // Counted as before the signal when its connection was open by then.
            let beforeSignal = false;
            const o = await post(server.base, auth, { click: 1, batchId, seq: s }, agent, () => (beforeSignal = !signalled));
            outcomes.push({ batchId, o, beforeSignal, how: agent === false ? 'fresh' : 'keep-alive' });
            if (typeof o !== 'number') return;
          }
        };
        const streams = [false as const, false as const, ...agents].map(stream);
        while (outcomes.length < 20) await sleep(10);

        // The last 50 ms before the signal: fresh connections, some still in the accept queue when it comes.
        const burst: Promise<void>[] = [];
        const established: Promise<void>[] = [];
        const kinds = ['whole', 'slow body', 'late start'] as const;
        for (let wave = 0; wave < 3; wave++) {
          for (const kind of kinds) {
            for (let k = 0; k < 2; k++) {
              const { batchId, seq: s } = nextBatch();
              const c = rawClick(port, auth, JSON.stringify({ click: 1, batchId, seq: s }), kind);
              established.push(c.established);
              burst.push(c.outcome.then((o) => void outcomes.push({ batchId, o, beforeSignal: true, how: `burst ${kind}` })));
            }
          }
          if (wave < 2) await sleep(25);
        }
        // The signal comes as soon as the last wave's connections are open: they are still in the
        // accept queue, or accepted with nothing read yet.
        await Promise.all(established);
        signalled = true;
        const code = await server.stop('SIGTERM');
        await Promise.all([...streams, ...burst]);

        const before = outcomes.filter((x) => x.beforeSignal);
        const unanswered = before.filter((x) => typeof x.o !== 'number');
        if (code !== 0) failures.push(`run ${run} (${mode}): exit ${code}`);
        if (unanswered.length > 0) failures.push(`run ${run} (${mode}): ${unanswered.length} of ${before.length} unanswered: ${unanswered.map((x) => `${x.how} ${x.o}`).join(', ')}`);
        const odd = before.filter((x) => typeof x.o === 'number' && x.o !== 200 && x.o !== 503);
        if (odd.length > 0) failures.push(`run ${run} (${mode}): statuses ${odd.map((x) => `${x.how} ${x.o}`).join(', ')}`);

        // Exactly the clicks answered 200 are stored.
        const db = await openDb({ DATA_DIR: dataDir, DATABASE_URL: undefined }, { migrate: false });
        const stored = new Set((await db.query<{ batch_id: string }>(`SELECT batch_id FROM click_batches WHERE batch_id LIKE $1`, [`conn-${run}-%`])).rows.map((r) => r.batch_id));
        await db.close();
        const answered = outcomes.filter((x) => x.o === 200).map((x) => x.batchId);
        const lost = answered.filter((id) => !stored.has(id));
        const unacknowledged = outcomes.filter((x) => x.o !== 200 && stored.has(x.batchId));
        if (lost.length > 0 || unacknowledged.length > 0) failures.push(`run ${run} (${mode}): answered but not stored ${lost.join(',')}; stored unanswered ${unacknowledged.map((x) => `${x.batchId} ${x.o}`).join(',')}`);
        console.info(`shutdown-connections run ${run} (${mode}): ${before.length} requests before the signal, ${unanswered.length} unanswered, exit ${code}`);
        if (!/Stopped \(balancers \d+ ms, background \d+ ms, requests \d+ ms, database \d+ ms\)/.test(server.output())) failures.push(`run ${run} (${mode}): no clean stop line:\n${server.output().slice(-2_000)}`);
      } finally {
        for (const a of agents) a.destroy();
        await server.stop('SIGKILL');
        await relay.close();
        await telegram.close();
      }
    }
    expect(failures).toEqual([]);
  }, 120_000 * runs);
});
