/**
 * The server's Prometheus registry (docs/operations.md lists every series and what to do when its
 * alert fires). One registry per process. Core declares its own series here (HTTP requests, the
 * database, the jobs, load shedding); each feature declares its series in its own `metrics.ts`
 * with the helpers below, and GET /metrics (behind METRICS_TOKEN) answers them all in the text
 * format. The app names every feature's series (`featureSeries`, server/app.ts), so all are in the
 * registry from the start.
 *
 * Cost when metrics are off (no METRICS_TOKEN): the default process metrics (an event-loop delay
 * monitor, a GC observer) are not started and no HTTP hook is installed, so a request pays nothing;
 * the click path's counters are added once per group, not per request.
 *
 * With WORKERS=N (server/core/cluster.ts) a scrape reaches one worker at random, so every worker
 * answers /metrics with the sum over all of them: it asks the primary over IPC, and the primary's
 * prom-client AggregatorRegistry asks every worker for its registry and merges them (counters and
 * histograms sum; each gauge states its own rule where it is declared). The primary serves no port
 * of its own.
 */
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type GaugeConfiguration, type HistogramConfiguration } from 'prom-client';

export const metricsRegistry = new Registry();
const registers = [metricsRegistry];

/** Latency buckets around the click path's decided p99 of 35 ms (docs/decisions/clicks.md). */
export const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.035, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Fastify's route pattern (`routeOptions.url`), never a path with ids; requests no route matched share one label. */
export const unmatchedRoute = 'unmatched';

/** A counter with no label, in this process's registry. */
export function counter(name: string, help: string): Counter {
  return new Counter({ name, help, registers });
}

/** A counter by one label, in this process's registry. */
export function counterBy<L extends string>(label: L, name: string, help: string): Counter<L> {
  return new Counter({ name, help, labelNames: [label], registers });
}

/** A gauge in this process's registry; its `aggregator` is how WORKERS=N merges it (prom-client's default: sum). */
export function gauge<L extends string = string>(config: Omit<GaugeConfiguration<L>, 'registers'>): Gauge<L> {
  return new Gauge({ ...config, registers });
}

/** A gauge by one label, merged over workers by `aggregator`. */
export function gaugeBy<L extends string>(label: L, name: string, help: string, aggregator: 'min' | 'max'): Gauge<L> {
  return new Gauge({ name, help, labelNames: [label], registers, aggregator });
}

/** A histogram in this process's registry. */
export function histogram<L extends string = string>(config: Omit<HistogramConfiguration<L>, 'registers'>): Histogram<L> {
  return new Histogram({ ...config, registers });
}

/** Core's own series: the HTTP edge's, the database's and the jobs'. A feature's series are in its own `metrics.ts`. */
export const metrics = {
  http: {
    requestSeconds: new Histogram({
      name: 'money_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status, from the request read to the answer sent.',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: latencyBuckets,
      registers,
    }),
    dbUnavailable: new Counter({
      name: 'money_http_db_unavailable_total',
      help: 'Requests answered 503 with Retry-After because the database was away (docs/faults.md).',
      registers,
    }),
    shed: counterBy('reason', 'money_http_shed_total', 'Requests answered 503 with Retry-After before any work because the process was overloaded, by the bound it was past (docs/faults.md "Overload").'),
  },
  db: {
    poolWaits: counterBy('pool', 'money_db_pool_waits_total', 'Statements and transactions that had to wait for a pooled PostgreSQL connection (every connection busy).'),
    poolTimeouts: counterBy('pool', 'money_db_pool_timeouts_total', 'Waits for a PostgreSQL connection that ran out (connect timeout): the caller got DbUnavailable.'),
    statementTimeouts: counterBy('pool', 'money_db_statement_timeouts_total', 'Statements ended by the statement timeout, or given up by the client past it.'),
    poolWaiting: new Gauge({
      name: 'money_db_pool_waiting_clients',
      help: 'Callers waiting for a pooled PostgreSQL connection now (summed over workers).',
      labelNames: ['pool'] as const,
      registers,
      collect() {
        this.reset();
        for (const { name, pool } of pools) this.inc({ pool: name }, pool.waitingCount);
      },
    }),
    up: new Gauge({
      name: 'money_db_up',
      help: "1 when the database answered a probe (SELECT 1, bounded) at this scrape, else 0 (the lowest over workers).",
      labelNames: ['pool'] as const,
      registers,
      aggregator: 'min',
      async collect() {
        this.reset();
        await Promise.all([...databases].map(async ({ name, probe }) => this.set({ pool: name }, (await probe().catch(() => false)) ? 1 : 0)));
      },
    }),
    replicaInUse: new Gauge({
      name: 'money_db_replica_in_use',
      help: 'With DATABASE_REPLICA_URL: 1 while the social reads go to the replica, 0 while they went back to the primary (the lowest over workers; docs/scaling.md "Read replica").',
      registers,
      aggregator: 'min',
    }),
    replicaLag: new Gauge({
      name: 'money_db_replica_lag_seconds',
      help: "The replica's replay lag at its last check (-1 while it cannot be measured: the replica down or promoted; the highest over workers).",
      registers,
      aggregator: 'max',
    }),
    replicaFallbacks: counterBy('reason', 'money_db_replica_fallbacks_total', 'Times the social reads went back to the primary, by reason: lagging (past REPLICA_MAX_LAG_MS), down, promoted.'),
  },
  // A job's label is `name`: Prometheus gives every series its scrape `job` label.
  jobs: {
    seconds: new Histogram({
      name: 'money_job_duration_seconds',
      help: "A job's runs that did work, by job.",
      labelNames: ['name'] as const,
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 600],
      registers,
    }),
    lastSuccess: gaugeBy('name', 'money_job_last_success_timestamp_seconds', "Unix time of a job's last check that finished without error (its period is done, here or in another process); the start time until then.", 'max'),
    checkInterval: gaugeBy('name', 'money_job_check_interval_seconds', 'How often each process checks the job: the alert compares the time since its last success with this.', 'max'),
    failures: counterBy('name', 'money_job_failures_total', "A job's checks that threw (the next check retries)."),
  },
} as const;

/** The reasons of money_http_shed_total: the queue's bound, or the bound a sample was past above the floor (server/core/load-shedding.ts). */
export const shedReasons = ['inFlight', 'eventLoopDelay', 'eventLoopUtilization', 'heapUsedBytes', 'queueDelay'] as const;
export type ShedReason = (typeof shedReasons)[number];
/** The reasons of money_db_replica_fallbacks_total: every state of server/core/db/replica.ts but `replica`. */
export type ReplicaFallbackReason = 'lagging' | 'down' | 'promoted';

// Series an alert or a rate reads exist from the start at 0, so the first event is an increase.
for (const reason of shedReasons) metrics.http.shed.inc({ reason }, 0);
for (const reason of ['lagging', 'down', 'promoted'] satisfies ReplicaFallbackReason[]) metrics.db.replicaFallbacks.inc({ reason }, 0);

/** The pool numbers money_db_pool_waiting_clients reads (pg.Pool has them). */
export interface PoolStats {
  readonly waitingCount: number;
  readonly idleCount: number;
  readonly totalCount: number;
}
const pools = new Set<{ name: string; pool: PoolStats }>();
const databases = new Set<{ name: string; probe: () => Promise<boolean> }>();

/**
 * Counts `pool` in the pool gauges under `name` until the returned function is called (its close);
 * its waits, connect and statement time-outs are series at 0 from here on.
 */
export const trackPool = (name: string, pool: PoolStats): (() => void) => {
  for (const counter of [metrics.db.poolWaits, metrics.db.poolTimeouts, metrics.db.statementTimeouts]) counter.inc({ pool: name }, 0);
  const entry = { name, pool };
  pools.add(entry);
  return () => void pools.delete(entry);
};

/** Probes a database at each scrape for money_db_up, until the returned function is called. */
export const trackDatabase = (name: string, probe: () => Promise<boolean>): (() => void) => {
  const entry = { name, probe };
  databases.add(entry);
  return () => void databases.delete(entry);
};

/** A job's check: `didWork` when it ran its work (not when its period was already done). */
export const recordJobCheck = (job: string, seconds: number, didWork: boolean, nowMs: number = Date.now()): void => {
  if (didWork) metrics.jobs.seconds.observe({ name: job }, seconds);
  metrics.jobs.lastSuccess.set({ name: job }, nowMs / 1000);
};

/** A job as the scheduler starts it: its check interval, its start as the first "last success", its failures at 0. */
export const recordJobStarted = (job: string, checkEveryMs: number, nowMs: number = Date.now()): void => {
  metrics.jobs.failures.inc({ name: job }, 0);
  metrics.jobs.checkInterval.set({ name: job }, checkEveryMs / 1000);
  metrics.jobs.lastSuccess.set({ name: job }, nowMs / 1000);
};

let processMetrics = false;

/** Starts the default process metrics (CPU, memory, event-loop lag, GC) once; only when /metrics is served. */
export const startProcessMetrics = (): void => {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: metricsRegistry });
  // A cluster worker answers the primary's requests for its registry (prom-client's own IPC).
  if (cluster.isWorker) {
    AggregatorRegistry.setRegistries([metricsRegistry]);
    new AggregatorRegistry();
  }
};

const requestType = 'money:metrics-request';
const answerType = 'money:metrics-answer';

interface MetricsRequest {
  type: typeof requestType;
  id: number;
}
interface MetricsAnswer {
  type: typeof answerType;
  id: number;
  text?: string;
  error?: string;
}
const isMessage = <T extends { type: string }>(m: unknown, type: T['type']): m is T =>
  typeof m === 'object' && m !== null && (m as { type?: unknown }).type === type && typeof (m as { id?: unknown }).id === 'number';

/**
 * In the primary of WORKERS=N: answers a worker's request with every worker's metrics merged. The
 * merge is prom-client's (its own 5 s bound on a worker that does not answer).
 */
export const serveClusterMetrics = (): void => {
  const aggregator = new AggregatorRegistry();
  const reply = (worker: Worker, answer: MetricsAnswer) => {
    if (worker.isConnected()) worker.send(answer, undefined, () => {});
  };
  cluster.on('message', (worker, message: unknown) => {
    if (!isMessage<MetricsRequest>(message, requestType)) return;
    aggregator.clusterMetrics().then(
      (text) => reply(worker, { type: answerType, id: message.id, text }),
      (err: unknown) => reply(worker, { type: answerType, id: message.id, error: err instanceof Error ? err.message : String(err) }),
    );
  });
};

/** How long a worker waits for the primary's merge (longer than prom-client's 5 s, under Prometheus's 10 s scrape timeout). */
export const clusterScrapeTimeoutMs = 6_000;

const waiting = new Map<number, (a: MetricsAnswer) => void>();
let nextRequest = 0;
let listening = false;

const askPrimary = (): Promise<string> =>
  new Promise((resolve, reject) => {
    if (!listening) {
      listening = true;
      process.on('message', (m: unknown) => {
        if (isMessage<MetricsAnswer>(m, answerType)) waiting.get(m.id)?.(m);
      });
    }
    const id = nextRequest++;
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error(`the primary did not merge the workers' metrics within ${clusterScrapeTimeoutMs} ms`));
    }, clusterScrapeTimeoutMs);
    waiting.set(id, (a) => {
      clearTimeout(timer);
      waiting.delete(id);
      if (a.text !== undefined) resolve(a.text);
      else reject(new Error(a.error ?? 'no metrics'));
    });
    process.send!({ type: requestType, id } satisfies MetricsRequest);
  });

/** What a scrape answers: this process's metrics, or in a cluster worker every worker's, merged. */
export const scrape = async (): Promise<{ contentType: string; text: string }> => ({
  contentType: metricsRegistry.contentType,
  text: cluster.isWorker && process.send !== undefined ? await askPrimary() : await metricsRegistry.metrics(),
});
