/**
 * Bounded, complete shutdown (docs/faults.md "Stopping"): steps run in order, each with its own
 * timeout, and a step that throws or hangs never skips the ones after it. An unreachable Telegram
 * makes grammY's bot.stop() throw; the requests in flight and the database still close.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
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
  /** The longest the requests in flight are waited for once the port is closed. */
  inFlightMs: number;
  /** Quiet time after the last answer before idle connections are closed: a request whose bytes have arrived but not been read yet is read within it. */
  settleMs: number;
  /** The longest Fastify's close (its onClose hooks: grouped writes flushed) may take after that. */
  closeMs: number;
}

export const drainDefaults: DrainBounds = { inFlightMs: 6_000, settleMs: 50, closeMs: 1_500 };

export interface Drainable {
  /**
   * Stops accepting connections, answers every request already read or arriving on an open
   * connection, closes the connections left idle, then closes the app; each part bounded. Throws
   * (after closing what it can) when requests were still in flight at their bound.
   */
  drain(bounds?: Partial<DrainBounds>): Promise<void>;
  /** Requests read and not yet answered. */
  readonly inFlight: number;
}

/**
 * Follows `app`'s requests from the start, so that a shutdown knows which are in flight
 * (docs/faults.md "Stopping"). Install it before the port opens.
 *
 * Why not Fastify's close alone: Node's `server.close()` first closes every connection that has
 * no request being read. A connection accepted with its request still unread in the socket counts
 * as idle and is reset (under SIGTERM with the Bot API away, 15 of 62 clicks in flight were). So
 * the port is closed on its own (net.Server's close, no idle sweep), every request on an open
 * connection is answered with `Connection: close`, and only once none is in flight and a quiet
 * moment has passed are the idle connections closed and the app closed.
 */
export const drainable = (app: { close(): Promise<unknown>; server: Server }): Drainable => {
  const { server } = app;
  const open = new Set<ServerResponse>();
  let draining = false;
  let lastAnswerAt = 0;
  // Before Fastify's own listener: the answer is marked while its headers are still unwritten.
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    open.add(res);
    if (draining) res.shouldKeepAlive = false;
    res.once('close', () => {
      open.delete(res);
      lastAnswerAt = performance.now();
    });
  });
  const quiet = async (bounds: DrainBounds): Promise<void> => {
    for (;;) {
      if (open.size === 0 && performance.now() - lastAnswerAt >= bounds.settleMs) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
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
      // One turn of the event loop first: its poll phase accepts every connection already queued
      // (a queued connection is reset when the port closes under it).
      await new Promise((resolve) => setImmediate(resolve));
      if (server.listening) NetServer.prototype.close.call(server);
      lastAnswerAt = performance.now();
      const waited = await timeoutAfter(bounds.inFlightMs, quiet(bounds));
      const left = open.size;
      // Only now: a connection idle at this point has had its last request answered.
      server.closeIdleConnections();
      const closed = await timeoutAfter(bounds.closeMs, app.close());
      if (waited === 'timed out') throw new Error(`${left} requests still in flight after ${bounds.inFlightMs} ms`);
      if (closed === 'timed out') throw new Error(`the app's close took longer than ${bounds.closeMs} ms`);
    },
  };
};

let draining = false;

/** True from the first SIGTERM/SIGINT on: /readyz answers 503 "draining" (docs/operations.md "Probes"). */
export const isDraining = (): boolean => draining;

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
