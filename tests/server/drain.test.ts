/**
 * The requests step of a shutdown (server/core/shutdown.ts `drainable`, docs/faults.md "Stopping"):
 * the port closes first, every request in flight or arriving on an open connection is answered
 * (with `Connection: close`), and only then are idle connections closed and the app closed. A
 * connection the server had accepted but whose request it had not read yet is answered, not reset.
 */
import { connect, type Socket } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { drainable, type Drainable } from '../../server/core/shutdown.ts';

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
    const drained = drain.drain({ settleMs: 300 });
    await until(() => !app.server.listening);
    client.send('/fast');
    await drained;
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

    const drained = drain.drain({ settleMs: 20 });
    await until(() => !app.server.listening);
    const refused = await new Promise<string>((resolve) => connect(port, '127.0.0.1').on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? '')).on('connect', () => resolve('connected')));
    expect(refused).toBe('ECONNREFUSED');
    // The request in flight holds the drain: nothing is closed under it.
    expect(idle.ended()).toBe('open');
    expect(busy.ended()).toBe('open');

    release();
    await drained;
    expect(busy.read()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(busy.read()).toMatch(/\r\nconnection: close\r\n/i);
    expect(busy.read()).toContain('{"slow":true}');
    await until(() => idle.ended() !== 'open');
    expect(idle.ended()).toBe('closed');
  });

  it('gives up on requests still in flight at its bound, still closes the app, and says so', async () => {
    const port = await start();
    const busy = await rawClient(port);
    busy.send('/slow');
    await until(() => drain.inFlight === 1);
    await expect(drain.drain({ inFlightMs: 50, settleMs: 10, closeMs: 100 })).rejects.toThrow(/1 requests still in flight after 50 ms/);
    busy.destroy();
  });
});
