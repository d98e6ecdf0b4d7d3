/**
 * Bounded, complete shutdown (docs/faults.md "Stopping"): steps run in order, each with its own
 * timeout, and a step that throws or hangs never skips the ones after it. An unreachable Telegram
 * makes grammY's bot.stop() throw; the requests in flight and the database still close.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

export interface Step {
  name: string;
  /** Past this the step is given up and the next one starts. */
  timeoutMs: number;
  run(): Promise<unknown>;
}

export interface StepResult {
  name: string;
  ms: number;
  /** Why it did not finish cleanly: the error, or "timed out". */
  failure?: string;
}

/** Runs `step` to its end, its failure or its timeout, whichever comes first; never throws. */
export const runStep = async (step: Step, now: () => number = Date.now): Promise<StepResult> => {
  const started = now();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`timed out after ${step.timeoutMs} ms`), step.timeoutMs);
  });
  const failure = await Promise.race([
    // `async` so a step that throws before returning its promise is caught too.
    (async () => step.run())().then(
      () => undefined,
      (err: unknown) => (err instanceof Error ? err.message : String(err)),
    ),
    timedOut,
  ]);
  clearTimeout(timer);
  return { name: step.name, ms: now() - started, ...(failure !== undefined ? { failure } : {}) };
};

/** Runs the steps one after another; every step runs whatever the earlier ones did. */
export const runSteps = async (steps: readonly Step[]): Promise<StepResult[]> => {
  const results: StepResult[] = [];
  for (const step of steps) results.push(await runStep(step));
  return results;
};

/** Runs independent steps side by side (the bot, the broadcast worker, the jobs); never throws. */
export const runParallel = (steps: readonly Step[]): Promise<StepResult[]> => Promise.all(steps.map((s) => runStep(s)));

/** "background 12 ms, requests 40 ms, database 3 ms (failed: …)" for the last log line. */
export const describeSteps = (results: readonly StepResult[]): string =>
  results.map((r) => `${r.name} ${r.ms} ms${r.failure !== undefined ? ` (${r.failure})` : ''}`).join(', ');

/** The sum of the steps' timeouts: the longest a shutdown can take. */
export const stepsBudgetMs = (steps: readonly Step[]): number => steps.reduce((sum, s) => sum + s.timeoutMs, 0);

/** `work`'s result, or 'timed out' past `ms`. */
const timeoutAfter = <T>(ms: number, work: Promise<T>): Promise<T | 'timed out'> => {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([work, new Promise<'timed out'>((resolve) => (timer = setTimeout(() => resolve('timed out'), ms)))]).finally(() => clearTimeout(timer));
};

export interface DrainBounds {
  /** The longest the connections queued when the drain starts are accepted for, before the port closes. */
  acceptMs: number;
  /** The longest the requests are waited for once the port is closed: those in flight, and those being received. */
  inFlightMs: number;
  /**
   * How long, once the port is closed, a connection with no request under way is left open for one:
   * an accepted connection that has sent nothing yet, or a keep-alive one between requests.
   */
  idleMs: number;
  /** The longest Fastify's close (its onClose hooks: grouped writes flushed) may take after that. */
  closeMs: number;
}

export const drainDefaults: DrainBounds = { acceptMs: 2_000, inFlightMs: 6_000, idleMs: 1_000, closeMs: 1_500 };

export interface Drainable {
  /**
   * Stops accepting connections once every one already queued is accepted, answers every request
   * on an open connection (a connection that has sent nothing yet is given `idleMs` to send its
   * request), closes the connections left idle, then closes the app; each part bounded. Throws
   * (after closing what it can) when requests were still under way at their bound.
   */
  drain(bounds?: Partial<DrainBounds>): Promise<void>;
  /** Requests read and not yet answered. */
  readonly inFlight: number;
}

/**
 * Linux: how many connections wait in the accept queue of the socket listening on `port` (the
 * `rx_queue` of its LISTEN line in /proc/net/tcp and tcp6); undefined where that cannot be read.
 */
export const acceptQueueLength = (port: number): number | undefined => {
  const hexPort = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  let queued: number | undefined;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      const cols = line.trim().split(/\s+/);
      if (cols[3] !== '0A' || cols[1]?.endsWith(hexPort) !== true) continue;
      const n = Number.parseInt(cols[4]?.split(':')[1] ?? '', 16);
      if (Number.isFinite(n)) queued = (queued ?? 0) + n;
    }
  }
  return queued;
};

/** A turn of the event loop that includes a poll phase: bytes arrived before it are read, and a queued connection accepted. */
const pollTurn = async (): Promise<void> => {
  // setImmediate runs in the check phase, right after a poll phase; two of them are a full turn
  // whatever phase we start in (the first may run in the current turn, after its poll).
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
};

/** A parser of Node's list of an HTTP server's connections (what closeIdleConnections reads). */
interface TrackedParser {
  socket: Socket;
}

/**
 * The connections on which a request is expected or being received, by Node's own list (the one
 * `closeIdleConnections` reads: a connection is "active" from its accept, or a request's first byte,
 * until that request is read whole; Node makes the list when the server starts listening);
 * undefined on a Node without it.
 */
const activeConnectionsOf = (server: Server): TrackedParser[] | undefined => {
  const key = Object.getOwnPropertySymbols(server).find((sym) => sym.description === 'http.server.connections');
  const list = key === undefined ? undefined : ((server as unknown as Record<symbol, unknown>)[key] as { active?: () => TrackedParser[] } | undefined);
  return typeof list?.active === 'function' ? list.active() : undefined;
};

/**
 * Follows `app`'s requests from the start, so that a shutdown knows which are in flight
 * (docs/faults.md "Stopping"). Install it before the port opens.
 *
 * Why not Fastify's close alone: Node's `server.close()` first closes every connection that has
 * no request being read, then the process exits under the ones still being read. A connection
 * still in the kernel's accept queue when the port closes is reset, and so is one accepted whose
 * request has not arrived yet when the process exits. So the port closes only after a full turn
 * of the event loop (its poll phase accepts every connection queued before the signal), on its own
 * (net.Server's close, no idle sweep); every request on an open connection is answered with
 * `Connection: close`; a connection that has sent nothing yet is given `idleMs` to send its
 * request; and only once no request is under way are the idle connections and the app closed.
 */
export const drainable = (app: { close(): Promise<unknown>; server: Server }): Drainable => {
  const { server } = app;
  const open = new Set<ServerResponse>();
  let draining = false;
  let accepted = 0;
  server.prependListener('connection', () => void accepted++);
  // Before Fastify's own listener: the answer is marked while its headers are still unwritten.
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    open.add(res);
    if (draining) res.shouldKeepAlive = false;
    res.once('close', () => open.delete(res));
  });
  /**
   * True when no request is under way: none in flight, and none being received — a connection
   * that has sent part of a request, or (until `idleMs` after the port closed) one accepted that
   * has sent nothing yet. Read in the check phase, right after a poll phase has read every byte
   * that had arrived.
   */
  const settled = (closedAt: number, bounds: DrainBounds): boolean => {
    if (open.size > 0) return false;
    const graceOver = performance.now() - closedAt >= bounds.idleMs;
    const active = activeConnectionsOf(server);
    for (const { socket } of active ?? []) {
      if (socket.destroyed) continue;
      // Part of a request has arrived: it is answered, whatever the grace.
      if (socket.bytesRead > 0 || !graceOver) return false;
    }
    // Without Node's list, the grace alone stands for the connections still to send.
    return active !== undefined || graceOver;
  };
  const untilSettled = async (closedAt: number, bounds: DrainBounds): Promise<void> => {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      await new Promise((resolve) => setImmediate(resolve));
      if (settled(closedAt, bounds)) return;
    }
  };
  return {
    get inFlight() {
      return open.size;
    },
    drain: async (given = {}) => {
      const bounds = { ...drainDefaults, ...given };
      draining = true;
      // Keep-alive clients are told to go elsewhere after the answer they are waiting for.
      for (const res of open) if (!res.headersSent) res.shouldKeepAlive = false;
      // Every connection queued until now is accepted first (one still queued when the port closes
      // is reset by the kernel). libuv accepts one connection a turn of the event loop, and clients
      // that do not know of the shutdown keep queueing behind them, so the queue is counted now
      // (Linux) and that many more are accepted, the queue being first in, first out; elsewhere,
      // turns run until one accepts nothing. At most `acceptMs` either way.
      const acceptingSince = performance.now();
      const address = server.address();
      const queued = typeof address === 'object' && address !== null ? acceptQueueLength(address.port) : undefined;
      const target = accepted + (queued ?? 0);
      for (;;) {
        const before = accepted;
        await pollTurn();
        if (queued !== undefined ? accepted >= target : accepted === before) break;
        if (performance.now() - acceptingSince >= bounds.acceptMs) break;
      }
      if (server.listening) NetServer.prototype.close.call(server);
      const closedAt = performance.now();
      const waited = await timeoutAfter(bounds.inFlightMs, untilSettled(closedAt, bounds));
      const left = open.size;
      // Only now: a connection idle at this point has had its last request answered, and one that
      // has sent nothing had its grace (Node counts it active, so its own sweep would keep it).
      server.closeIdleConnections();
      for (const { socket } of activeConnectionsOf(server) ?? []) if (socket.bytesRead === 0) socket.destroy();
      const closed = await timeoutAfter(bounds.closeMs, app.close());
      if (waited === 'timed out') throw new Error(`${left} requests still in flight after ${bounds.inFlightMs} ms`);
      if (closed === 'timed out') throw new Error(`the app's close took longer than ${bounds.closeMs} ms`);
    },
  };
};

let draining = false;

/** True from the first SIGTERM/SIGINT on: /readyz answers 503 "draining" (docs/operations.md "Probes"). */
export const isDraining = (): boolean => draining;

/** A caller of /readyz seen this recently before the signal is a balancer that must be told (ms). */
const watchingWindowMs = 5_000;

export interface NoticeBounds {
  /** The "draining" answers a balancer needs to take the process out (HAProxy's `fall`). */
  checks: number;
  /** The longest the process waits for that. */
  maxMs: number;
}

/** The callers of /readyz, by address: the balancers to tell before the port closes. */
export const readyzWatch = () => {
  const checkers = new Map<string, { lastMs: number; drainingAnswers: number }>();
  return {
    /** Notes a check by `checker`, answered "draining" or not. */
    checked(checker: string, answeredDraining: boolean, nowMs: number = performance.now()): void {
      const seen = checkers.get(checker) ?? { lastMs: nowMs, drainingAnswers: 0 };
      seen.lastMs = nowMs;
      if (answeredDraining) seen.drainingAnswers++;
      checkers.set(checker, seen);
      // A balancer that went away is forgotten: the map stays as small as the set of balancers.
      if (checkers.size > 64) for (const [who, c] of checkers) if (nowMs - c.lastMs > watchingWindowMs) checkers.delete(who);
    },
    /**
     * Resolves once every caller that checked in the few seconds before `signalMs` has been
     * answered "draining" `checks` times, so that it sends no new request here, or at
     * `signalMs + maxMs`; at once when none checked.
     */
    async noticed(bounds: NoticeBounds, signalMs: number = performance.now()): Promise<void> {
      const watching = [...checkers.values()].filter((c) => signalMs - c.lastMs <= watchingWindowMs);
      while (watching.some((c) => c.drainingAnswers < bounds.checks) && performance.now() < signalMs + bounds.maxMs) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
};

const watch = readyzWatch();

/** Notes a /readyz check by `checker` (the caller's address); tells whether it is answered "draining". */
export const readyzChecked = (checker: string): boolean => {
  watch.checked(checker, draining);
  return draining;
};

/**
 * After the signal, requests go on being served until the balancers polling /readyz have been
 * answered "draining" often enough to take the process out (docs/faults.md "Stopping").
 */
export const balancersNoticed = (bounds: NoticeBounds): Promise<void> => watch.noticed(bounds);

/**
 * On SIGTERM or SIGINT runs `steps` once and exits: 0 when the requests and the database closed
 * (an outside service that failed to stop is logged, not fatal), 1 otherwise. A last-resort timer
 * exits 1 a second after the steps' budget in case something blocks the event loop.
 */
export const installShutdown = (steps: readonly Step[], log: (m: string) => void = console.log): void => {
  let stopping: Promise<number> | undefined;
  const shutdown = (signal: string): Promise<number> =>
    (stopping ??= (async () => {
      // Before any step: a balancer polling /readyz stops sending new work while the steps run.
      draining = true;
      log(`${signal}: finishing requests in flight and shutting down…`);
      const budgetMs = stepsBudgetMs(steps) + 1_000;
      const force = setTimeout(() => {
        console.error(`Shutdown took longer than ${budgetMs / 1000} s; exiting anyway.`);
        process.exit(1);
      }, budgetMs);
      force.unref();
      const results = await runSteps(steps);
      clearTimeout(force);
      log(`Stopped (${describeSteps(results)}).`);
      const ownFailed = results.some((r) => r.failure !== undefined && (r.name === 'requests' || r.name === 'database'));
      return ownFailed ? 1 : 0;
    })());
  // `on`, not `once`: a process manager and npm may both deliver the signal (systemd signals the
  // whole group, npm forwards it), and a second one must not kill a shutdown half-way.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void shutdown(signal).then((code) => process.exit(code)));
};
