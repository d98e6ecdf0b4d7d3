/**
 * Load shedding decided by our own demand (docs/faults.md "Overload").
 *
 * The gate sits in front of Fastify, on the HTTP server's own request event: a shed request is
 * answered there with one prebuilt 503 (`overloaded`, Retry-After SHED_RETRY_AFTER_S), before any
 * routing, hook, body read, log line or error is made for it. Only the API is ever shed (the
 * player API and the console's): the app shell, static files, /livez, /readyz and /metrics are
 * always served.
 *
 * What decides is MONEY's own queue, the API requests admitted and not yet answered:
 * - below SHED_IN_FLIGHT_FLOOR in flight nothing is shed, whatever the clock says: a lone request,
 *   a player's first burst on the embedded database, a fresh start, or a process that another
 *   process starves of CPU all have few requests in flight, and shedding them would only hurt;
 * - at SHED_MAX_IN_FLIGHT every further request is shed: the queue's hard bound;
 * - in between, a request is shed when the queue is longer than the process answers in
 *   SHED_QUEUE_DELAY_MS (Little's law: the answers a second it has shown it can give, times the
 *   wait allowed), so an admitted request waits about that long at most; or while the last sample
 *   (every SHED_SAMPLE_MS) showed a late event loop (SHED_EVENT_LOOP_DELAY_MS), a busy one
 *   (SHED_EVENT_LOOP_UTILIZATION) or a full heap (SHED_HEAP_USED_RATIO). Latency alone never
 *   sheds: it must come with demand.
 * Each request is decided as it arrives, so the admitted work keeps flowing while the rest is
 * refused; there is no window in which everything is refused.
 *
 * A shed request writes no log line: it is counted in money_http_shed_total{reason} at each sample,
 * and one summary line is logged every SHED_LOG_INTERVAL_MS while shedding goes on.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { adminApiPrefix } from '../../engine/wire/admin-types.ts';
import { apiPrefix } from '../../engine/wire/api-types.ts';
import { refusalMessage } from '../../engine/wire/refusals.ts';
import type { CoreConfig } from './config/config.ts';
import { metrics, shedReasons, type ShedReason } from './metrics.ts';

export type SheddingConfig = Pick<
  CoreConfig,
  | 'SHED_IN_FLIGHT_FLOOR'
  | 'SHED_MAX_IN_FLIGHT'
  | 'SHED_EVENT_LOOP_DELAY_MS'
  | 'SHED_EVENT_LOOP_UTILIZATION'
  | 'SHED_HEAP_USED_RATIO'
  | 'SHED_QUEUE_DELAY_MS'
  | 'SHED_SAMPLE_MS'
  | 'SHED_RETRY_AFTER_S'
  | 'SHED_LOG_INTERVAL_MS'
>;

/** How much of the answers-a-second it has shown the process keeps from one sample to the next: a slow fade after a quiet spell. */
const capacityKept = 0.95;

/** The paths that can be shed: the player API and the console's API. Everything else is always served. */
export const isSheddable = (url: string | undefined): boolean => url !== undefined && (url.startsWith(apiPrefix) || url.startsWith(adminApiPrefix));


/** The server settings Fastify applies to a server it makes itself, which a factory must apply too. */
export interface ServerTimeouts {
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

export interface SheddingLog {
  warn(obj: object, msg: string): void;
}

export interface LoadShedding {
  /** Fastify's `serverFactory`: the HTTP server whose request event passes through the gate. */
  serverFactory(handler: (req: IncomingMessage, res: ServerResponse) => void, options: ServerTimeouts): Server;
  /** Starts sampling (and the summary log); stop() ends it. */
  start(log: SheddingLog): void;
  stop(): void;
  /** API requests admitted and not yet answered. */
  inFlight(): number;
  /** What the last sample found past its bound (it sheds only above the floor), or null. */
  pressure(): ShedReason | null;
  /** The queue the process answers within SHED_QUEUE_DELAY_MS, as the last sample saw it. */
  queueLimit(): number;
}

/** The body of a shed request; ops/ha/haproxy.cfg answers a request left in its queue with the same. */
const overloadedBody = { error: 'Service Unavailable', message: refusalMessage('overloaded'), code: 'overloaded' } as const;

/** The gate and its sampler; nothing runs until start(). */
export const createLoadShedding = (config: SheddingConfig): LoadShedding => {
  // One answer for every shed request, built once: the path meant to cost least builds nothing.
  const body = Buffer.from(JSON.stringify(overloadedBody));
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(body.length),
    'retry-after': String(config.SHED_RETRY_AFTER_S),
    'cache-control': 'no-store',
  };
  const heapBound = config.SHED_HEAP_USED_RATIO > 0 ? Math.floor(getHeapStatistics().heap_size_limit * config.SHED_HEAP_USED_RATIO) : Infinity;
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });

  let inFlight = 0;
  let pressure: ShedReason | null = null;
  // Admitted answers in the sample under way, and the answers a second the process has shown it gives.
  let answers = 0;
  let capacityPerS = 0;
  let queueLimit = config.SHED_IN_FLIGHT_FLOOR;
  let sampledAtMs = performance.now();
  const shedCounts = new Map<ShedReason, number>(shedReasons.map((r) => [r, 0]));
  let unlogged = 0;
  let lastElu = performance.eventLoopUtilization();
  let sampler: NodeJS.Timeout | undefined;
  let logger: NodeJS.Timeout | undefined;

  const shed = (res: ServerResponse, reason: ShedReason): void => {
    shedCounts.set(reason, shedCounts.get(reason)! + 1);
    res.writeHead(503, headers);
    res.end(body);
  };

  const gate = (req: IncomingMessage, res: ServerResponse, handler: (req: IncomingMessage, res: ServerResponse) => void): void => {
    if (!isSheddable(req.url)) return handler(req, res);
    if (inFlight >= config.SHED_IN_FLIGHT_FLOOR) {
      if (inFlight >= config.SHED_MAX_IN_FLIGHT) return shed(res, 'inFlight');
      if (pressure !== null) return shed(res, pressure);
      if (inFlight >= queueLimit) return shed(res, 'queueDelay');
    }
    inFlight++;
    res.once('close', () => {
      inFlight--;
      // A 503 (the database away) says nothing about what the process can answer.
      if (res.statusCode !== 503) answers++;
    });
    handler(req, res);
  };

  /** Ends a sample: what the next one decides by, and the shed counts into the metrics. */
  const sample = (): void => {
    const elu = performance.eventLoopUtilization(lastElu);
    lastElu = performance.eventLoopUtilization();
    const delayMs = loopDelay.mean / 1e6;
    loopDelay.reset();
    const nowMs = performance.now();
    capacityPerS = Math.max((answers * 1_000) / Math.max(1, nowMs - sampledAtMs), capacityPerS * capacityKept);
    sampledAtMs = nowMs;
    answers = 0;
    // The queue the process answers within SHED_QUEUE_DELAY_MS (Little's law), never below the floor.
    queueLimit = config.SHED_QUEUE_DELAY_MS > 0 ? Math.max(config.SHED_IN_FLIGHT_FLOOR, Math.ceil((capacityPerS * config.SHED_QUEUE_DELAY_MS) / 1_000)) : Infinity;
    if (config.SHED_EVENT_LOOP_DELAY_MS > 0 && delayMs > config.SHED_EVENT_LOOP_DELAY_MS) pressure = 'eventLoopDelay';
    else if (config.SHED_EVENT_LOOP_UTILIZATION > 0 && elu.utilization > config.SHED_EVENT_LOOP_UTILIZATION) pressure = 'eventLoopUtilization';
    else if (process.memoryUsage().heapUsed > heapBound) pressure = 'heapUsedBytes';
    else pressure = null;
    for (const [reason, n] of shedCounts) {
      if (n === 0) continue;
      metrics.http.shed.inc({ reason }, n);
      unlogged += n;
      shedCounts.set(reason, 0);
    }
  };

  return {
    serverFactory: (handler, options) => {
      const server = createServer((req, res) => gate(req, res, handler));
      if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
      if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
      if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
      if (options.maxRequestsPerSocket !== undefined && options.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
      return server;
    },
    start(log) {
      loopDelay.enable();
      sampler = setInterval(sample, config.SHED_SAMPLE_MS).unref();
      logger = setInterval(() => {
        if (unlogged === 0) return;
        log.warn({ shed: unlogged, inFlight, seconds: config.SHED_LOG_INTERVAL_MS / 1000 }, `overload: shed ${unlogged} API requests in the last ${config.SHED_LOG_INTERVAL_MS / 1000} s`);
        unlogged = 0;
      }, config.SHED_LOG_INTERVAL_MS).unref();
    },
    stop() {
      clearInterval(sampler);
      clearInterval(logger);
      loopDelay.disable();
      sample();
    },
    inFlight: () => inFlight,
    pressure: () => pressure,
    queueLimit: () => queueLimit,
  };
};
