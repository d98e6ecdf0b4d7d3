/**
 * HTTP/1.1 load generators that behave like a crowd of players, run in a process of their own so
 * that their CPU can be reported:
 *
 * - **Open loop** (`runOpenLoop`): requests are sent on a schedule (`rate` a second), never
 *   waiting for answers, so a slow server meets the load a crowd would give it instead of a load
 *   that politely slows down with it. Like a browser, a connection carries one request at a time:
 *   a request due while every open connection waits for an answer opens a new connection (up to
 *   `maxConnections`; past it, the request waits for the first connection free). Pipelining would
 *   hide requests from the server behind the ones before them on their connection, where no
 *   shedding and no proxy's queue can see them. Each answer's time is taken from the moment its
 *   request was due, so nothing the generator does hides a wait.
 * - **Closed loop** (`runClosedLoop`): `connections` players, each sending its next request as
 *   soon as its answer comes: what the server serves at its best with that many at once.
 */
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

/** The n-th request's bytes (a whole HTTP/1.1 request). */
type RequestOf = (n: number) => Buffer;
/** Called for each answer with the time since its request was due. */
type Answered = (n: number, status: number, body: string, ms: number) => void;

export interface OpenLoopOptions {
  port: number;
  rate: number;
  durationS: number;
  /** Connections opened before the first request. */
  connections: number;
  /** The most connections open at once (default 4 × `connections`). */
  maxConnections?: number;
  request: RequestOf;
  answered: Answered;
  /** How long to wait for the answers still due after the last request is sent. */
  drainMs?: number;
}

export interface OpenLoopResult {
  sent: number;
  answered: number;
  /** Requests whose connection failed before their answer (reset, closed, refused). */
  errors: number;
  /** Requests still unanswered when the drain ended. */
  unanswered: number;
  /** The most connections open at once. */
  connectionsOpened: number;
  /** The generator's own CPU, in ms. */
  cpuMs: number;
}

interface Pending {
  n: number;
  dueMs: number;
}

/** One keep-alive connection carrying one request at a time. */
interface Connection {
  /** Resolves once connected (or failed). */
  ready: Promise<void>;
  busy(): boolean;
  send(p: Pending, bytes: Buffer): void;
  close(): void;
}

const openConnection = (port: number, onAnswer: (c: Connection, p: Pending, status: number, body: string) => void, onLost: (c: Connection, p: Pending | undefined) => void): Connection => {
  let inFlight: Pending | undefined;
  let buf: Buffer = Buffer.alloc(0);
  let broken = false;
  const socket: Socket = connect({ port, host: '127.0.0.1', noDelay: true });
  const ready = new Promise<void>((resolve) => {
    socket.once('connect', resolve);
    socket.once('close', resolve);
  });
  const self: Connection = {
    ready,
    busy: () => broken || inFlight !== undefined,
    send(p, bytes) {
      inFlight = p;
      socket.write(bytes);
    },
    close: () => socket.destroy(),
  };
  socket.on('error', () => {});
  socket.on('close', () => {
    broken = true;
    const lost = inFlight;
    inFlight = undefined;
    onLost(self, lost);
  });
  socket.on('data', (chunk: Buffer) => {
    buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
    const headEnd = buf.indexOf('\r\n\r\n');
    if (headEnd < 0) return;
    const head = buf.toString('latin1', 0, headEnd);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (buf.length < headEnd + 4 + length) return;
    const body = buf.toString('utf8', headEnd + 4, headEnd + 4 + length);
    buf = buf.subarray(headEnd + 4 + length);
    const p = inFlight;
    inFlight = undefined;
    // A server that closes after this answer (Connection: close) leaves the connection broken.
    if (/\r\nconnection: *close/i.test(head)) {
      broken = true;
      socket.destroy();
    }
    if (p !== undefined) onAnswer(self, p, Number(head.slice(9, 12)), body);
  });
  return self;
};

const waitUntil = async (done: () => boolean, untilMs: number): Promise<void> => {
  while (!done() && performance.now() < untilMs) await new Promise((r) => setTimeout(r, 20));
};

export const runOpenLoop = async (o: OpenLoopOptions): Promise<OpenLoopResult> => {
  const cpuBefore = process.cpuUsage();
  const maxConnections = o.maxConnections ?? o.connections * 4;
  let answered = 0;
  let errors = 0;
  const open = new Set<Connection>();
  const idle: Connection[] = [];
  /** Due requests waiting for a connection (only past maxConnections). */
  const waiting: Pending[] = [];
  let peakOpen = 0;
  const dispatch = (p: Pending) => {
    let c = idle.pop();
    while (c !== undefined && c.busy()) c = idle.pop();
    if (c === undefined && open.size < maxConnections) c = add();
    if (c === undefined) waiting.push(p);
    else c.send(p, o.request(p.n));
  };
  const freed = (c: Connection) => {
    const next = waiting.shift();
    if (next !== undefined) c.send(next, o.request(next.n));
    else idle.push(c);
  };
  const add = (): Connection => {
    const c = openConnection(
      o.port,
      (conn, _p, status, body) => {
        answered++;
        o.answered(_p.n, status, body, performance.now() - _p.dueMs);
        if (!conn.busy()) freed(conn);
        else open.delete(conn);
      },
      (conn, lost) => {
        open.delete(conn);
        if (lost !== undefined) errors++;
      },
    );
    open.add(c);
    peakOpen = Math.max(peakOpen, open.size);
    return c;
  };
  for (let i = 0; i < o.connections; i++) idle.push(add());
  // The players are connected before the schedule starts: the server accepts one connection a
  // turn of its event loop, and a thousand arriving with the first requests would delay them.
  await Promise.all([...open].map((c) => c.ready));
  const startMs = performance.now();
  const endMs = startMs + o.durationS * 1_000;
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      const due = Math.floor(((Math.min(now, endMs) - startMs) / 1_000) * o.rate);
      while (sent < due) {
        const n = sent++;
        // The moment this request was due on the schedule, even when the timer ran late.
        dispatch({ n, dueMs: startMs + (n / o.rate) * 1_000 });
      }
      if (now >= endMs) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
  await waitUntil(() => answered + errors >= sent, performance.now() + (o.drainMs ?? 5_000));
  const unanswered = sent - answered - errors;
  for (const c of open) c.close();
  const cpu = process.cpuUsage(cpuBefore);
  return { sent, answered, errors, unanswered, connectionsOpened: peakOpen, cpuMs: (cpu.user + cpu.system) / 1_000 };
};

export interface ClosedLoopOptions {
  port: number;
  connections: number;
  durationS: number;
  request: RequestOf;
  answered: Answered;
}

/** `connections` players, each sending its next request when its answer comes, for `durationS`. */
export const runClosedLoop = async (o: ClosedLoopOptions): Promise<{ sent: number; answered: number; errors: number; cpuMs: number }> => {
  const cpuBefore = process.cpuUsage();
  const endMs = performance.now() + o.durationS * 1_000;
  let sent = 0;
  let answered = 0;
  let errors = 0;
  const next = (c: Connection) => {
    if (performance.now() >= endMs) return c.close();
    const n = sent++;
    c.send({ n, dueMs: performance.now() }, o.request(n));
  };
  const player = (): void => {
    const c = openConnection(
      o.port,
      (conn, p, status, body) => {
        answered++;
        o.answered(p.n, status, body, performance.now() - p.dueMs);
        if (conn.busy()) {
          conn.close();
          if (performance.now() < endMs) player();
        } else next(conn);
      },
      (_conn, lost) => {
        if (lost === undefined) return;
        errors++;
        if (performance.now() < endMs) player();
      },
    );
    next(c);
  };
  for (let i = 0; i < o.connections; i++) player();
  await waitUntil(() => performance.now() >= endMs && answered + errors >= sent, endMs + 5_000);
  const cpu = process.cpuUsage(cpuBefore);
  return { sent, answered, errors, cpuMs: (cpu.user + cpu.system) / 1_000 };
};
