/**
 * The requests step of a shutdown (server/core/shutdown.ts `drainable`, docs/faults.md "Stopping"):
 * the port closes first, every request in flight or arriving on an open connection is answered
 * (with `Connection: close`), and only then are idle connections closed and the app closed. A
 * connection the server had accepted (or still queued) but whose request it had not read yet is
 * answered, not reset; a request whose body is still arriving holds the drain.
 */
import { connect, type Socket } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { drainable, readyzWatch, type Drainable } from '../../server/core/shutdown.ts';

/** Waits (bounded by the test's timeout) until `ok()` holds; never an assertion on time. */
const until = async (ok: () => boolean | Promise<boolean>): Promise<void> => {
  while (!(await ok())) await new Promise((r) => setTimeout(r, 5));
};

/** A raw HTTP/1.1 client on one socket: everything it reads, and how the socket ended. */
const rawClient = async (port: number) => {
  const socket: Socket = connect(port, '127.0.0.1');
  let text = '';
  let ended: 'open' | 'closed' | 'reset' = 'open';
  socket.on('data', (d: Buffer) => (text += d.toString()));
  socket.on('error', () => (ended = 'reset'));
  socket.on('close', () => void (ended === 'open' && (ended = 'closed')));
  await new Promise((resolve) => socket.once('connect', resolve));
  return {
    send: (path: string) => socket.write(`GET ${path} HTTP/1.1\r\nHost: t\r\n\r\n`),
    write: (text: string) => socket.write(text),
    read: () => text,
    ended: () => ended,
    destroy: () => socket.destroy(),
  };
};

describe('drain', () => {
  let app: FastifyInstance;
  let drain: Drainable;
  let release: () => void = () => {};

  const start = async () => {
    const gate = new Promise<void>((r) => (release = r));
    app = Fastify();
    app.get('/fast', async () => ({ ok: true }));
    app.post('/echo', async (request) => request.body);
    app.get('/slow', async () => {
      await gate;
      return { slow: true };
    });
    drain = drainable(app);
    await app.listen({ host: '127.0.0.1', port: 0 });
    return (app.server.address() as { port: number }).port;
  };
  afterEach(async () => {
    release();
    await app.close().catch(() => {});
  });

  it('answers a request it had not read yet on a connection it had accepted, instead of resetting it', async () => {
    const port = await start();
    const client = await rawClient(port);
    await until(async () => (await new Promise<number>((r) => app.server.getConnections((_e, n) => r(n)))) === 1);
    const drained = drain.drain();
    await until(() => !app.server.listening);
    client.send('/fast');
    await drained;
    await until(() => client.ended() !== 'open');
    expect(client.read()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(client.read()).toMatch(/\r\nconnection: close\r\n/i);
    expect(client.read()).toContain('{"ok":true}');
    expect(client.ended()).toBe('closed');
  });

  it('waits for the requests in flight, refuses new connections meanwhile, then closes idle keep-alive connections', async () => {
    const port = await start();
    const idle = await rawClient(port);
    idle.send('/fast');
    await until(() => idle.read().includes('{"ok":true}'));
    const busy = await rawClient(port);
    busy.send('/slow');
    await until(() => drain.inFlight === 1);

    const drained = drain.drain({ idleMs: 20 });
    await until(() => !app.server.listening);
    const refused = await new Promise<string>((resolve) => connect(port, '127.0.0.1').on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? '')).on('connect', () => resolve('connected')));
    expect(refused).toBe('ECONNREFUSED');
    // The request in flight holds the drain: nothing is closed under it.
    expect(idle.ended()).toBe('open');
    expect(busy.ended()).toBe('open');

    release();
    await drained;
    await until(() => busy.ended() !== 'open');
    expect(busy.read()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(busy.read()).toMatch(/\r\nconnection: close\r\n/i);
    expect(busy.read()).toContain('{"slow":true}');
    await until(() => idle.ended() !== 'open');
    expect(idle.ended()).toBe('closed');
  });

  it('answers every connection queued when the drain starts: the port closes only once the queue counted then is accepted', async () => {
    const port = await start();
    // Connected (the handshake done, so in the kernel's accept queue or accepted), then the drain
    // starts in the same turn: nothing of these is read yet.
    const clients = await Promise.all(Array.from({ length: 20 }, () => rawClient(port)));
    const drained = drain.drain();
    for (const c of clients) c.send('/fast');
    await drained;
    for (const c of clients) await until(() => c.ended() !== 'open');
    expect(clients.map((c) => [c.ended(), /^HTTP\/1\.1 200 OK\r\n/.test(c.read())])).toEqual(clients.map(() => ['closed', true]));
  });

  it('holds the drain for a request whose body is still arriving, past the idle grace, and answers it', async () => {
    const port = await start();
    const slow = await rawClient(port);
    slow.write('POST /echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{"sl');
    await until(async () => (await new Promise<number>((r) => app.server.getConnections((_e, n) => r(n)))) === 1);
    let done = false;
    const drained = drain.drain({ idleMs: 20 }).finally(() => (done = true));
    const startedAt = performance.now();
    // Well past the grace: the request under way still holds the drain.
    await until(() => performance.now() - startedAt > 200);
    expect(done).toBe(false);
    slow.write('ow":true}');
    await drained;
    await until(() => slow.ended() !== 'open');
    expect(slow.read()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(slow.read()).toContain('{"slow":true}');
  });

  it('closes, after the idle grace, an accepted connection that never sends anything', async () => {
    const port = await start();
    const silent = await rawClient(port);
    await until(async () => (await new Promise<number>((r) => app.server.getConnections((_e, n) => r(n)))) === 1);
    await drain.drain({ idleMs: 20 });
    await until(() => silent.ended() !== 'open');
    expect(silent.read()).toBe('');
  });

  it('gives up on requests still in flight at its bound, still closes the app, and says so', async () => {
    const port = await start();
    const busy = await rawClient(port);
    busy.send('/slow');
    await until(() => drain.inFlight === 1);
    await expect(drain.drain({ inFlightMs: 50, idleMs: 10, closeMs: 100 })).rejects.toThrow(/1 requests still in flight after 50 ms/);
    busy.destroy();
  });
});

describe('balancers told before the port closes', () => {
  const state = (p: Promise<void>) => {
    let settled = false;
    void p.then(() => (settled = true));
    return { settled: () => settled, done: p };
  };
  const turns = () => new Promise((r) => setTimeout(r, 60));

  it('waits until each balancer polling /readyz before the signal was answered "draining" the number of times it needs', async () => {
    const watch = readyzWatch();
    const signalMs = performance.now();
    watch.checked('10.0.0.1', false, signalMs - 900);
    watch.checked('10.0.0.2', false, signalMs - 400);
    const noticed = state(watch.noticed({ checks: 2, maxMs: 60_000 }, signalMs));
    watch.checked('10.0.0.1', true);
    watch.checked('10.0.0.1', true);
    watch.checked('10.0.0.2', true);
    await turns();
    // One balancer has seen "draining" once: it may still send requests here.
    expect(noticed.settled()).toBe(false);
    watch.checked('10.0.0.2', true);
    await noticed.done;
  });

  it('drains at once when nobody polls /readyz, or only an address that stopped polling long before the signal', async () => {
    const watch = readyzWatch();
    await watch.noticed({ checks: 2, maxMs: 60_000 });
    const signalMs = performance.now();
    watch.checked('10.0.0.9', false, signalMs - 30_000);
    await watch.noticed({ checks: 2, maxMs: 60_000 }, signalMs);
  });

  it('gives up at its bound when a balancer never checks again', async () => {
    const watch = readyzWatch();
    watch.checked('10.0.0.1', false);
    const noticed = state(watch.noticed({ checks: 2, maxMs: 200 }));
    await turns();
    expect(noticed.settled()).toBe(false);
    await noticed.done;
  });
});
