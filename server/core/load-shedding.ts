/**
 * Overload is shed before the event loop drowns (docs/faults.md "Overload"): @fastify/under-pressure
 * samples the event loop's delay and utilization, the heap and the queue of admitted requests
 * (below) every SHED_SAMPLE_MS, and while the last sample is past a bound every request is
 * refused `overloaded` (with SHED_RETRY_AFTER_S) in its onRequest hook, before its body is read or
 * any work is done. The edge answers it like any refusal (server/routes/refusal-status.ts: 503 with
 * Retry-After); the mini-app's engine treats it like the database away: one "Reconnecting…" line,
 * taps kept and resent.
 *
 * /livez and /metrics are never shed: a process manager that restarted a busy process, or a
 * Prometheus that lost its scrape, would make the overload worse and hide it.
 */
import { getHeapStatistics } from 'node:v8';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config/config.ts';
import { refuse } from './errors.ts';
import { metrics, type ShedReason } from './metrics.ts';

/** Paths answered whatever the load (docs/operations.md "Probes"). */
export const shedExemptPaths: ReadonlySet<string> = new Set(['/livez', '/metrics']);

export type SheddingConfig = Pick<
  Config,
  'SHED_EVENT_LOOP_DELAY_MS' | 'SHED_EVENT_LOOP_UTILIZATION' | 'SHED_HEAP_USED_RATIO' | 'SHED_QUEUE_DELAY_MS' | 'SHED_SAMPLE_MS' | 'SHED_RETRY_AFTER_S'
>;

/** Fewer answers than this in a sample say nothing about a queue: a few slow outside calls are not an overload. */
export const queueSampleMin = 8;

/**
 * The standing queue behind the event loop (CoDel's test): over each sample, the fastest answer to
 * a request that was let in. When even the fastest waited longer than the bound, every request is
 * waiting behind others — for the database pool, a click group's commit — which the event loop's
 * delay does not show, as the loop is idle while it waits.
 */
const queueDelay = (boundMs: number) => {
  let fastestMs = Infinity;
  let answers = 0;
  let overloaded = false;
  return {
    answered(ms: number): void {
      answers++;
      if (ms < fastestMs) fastestMs = ms;
    },
    /** Ends a sample; true while its fastest answer was over the bound. */
    sample(): boolean {
      overloaded = answers >= queueSampleMin && fastestMs > boundMs;
      fastestMs = Infinity;
      answers = 0;
      return overloaded;
    },
  };
};

/** Registers the shedding on the root instance (every route); with every bound at 0 it installs no hook. */
export const installLoadShedding = async (app: FastifyInstance, config: SheddingConfig): Promise<void> => {
  const heapLimit = getHeapStatistics().heap_size_limit;
  // One refusal for every shed request: its Retry-After is fixed for the process, and shedding is
  // the path meant to cost least, so no Error (and stack trace) is built per request. Frozen: the
  // edge's error handler only reads a refusal's fields.
  const overloaded = Object.freeze(refuse('overloaded', { retryAfterS: config.SHED_RETRY_AFTER_S }));
  const queue = config.SHED_QUEUE_DELAY_MS > 0 ? queueDelay(config.SHED_QUEUE_DELAY_MS) : undefined;
  if (queue !== undefined) {
    app.addHook('onResponse', (_request, reply, done) => {
      // A shed request (or one refused while the database is away) says nothing about the queue.
      if (reply.statusCode !== 503) queue.answered(reply.elapsedTime);
      done();
    });
  }
  await app.register(underPressure, {
    maxEventLoopDelay: config.SHED_EVENT_LOOP_DELAY_MS,
    maxEventLoopUtilization: config.SHED_EVENT_LOOP_UTILIZATION,
    maxHeapUsedBytes: Math.floor(heapLimit * config.SHED_HEAP_USED_RATIO),
    // 'interval': the utilization of the last sample; the default ('cumulative') is since the start.
    eventLoopUtilizationMode: 'interval',
    sampleInterval: config.SHED_SAMPLE_MS,
    // The plugin's "health check" is our queue test, taken once a sample.
    ...(queue !== undefined ? { healthCheck: async () => !queue.sample(), healthCheckInterval: config.SHED_SAMPLE_MS } : {}),
    // Resolved: the request goes on as if nothing happened. Rejected: the plugin's next(err), so
    // the refusal goes to the edge's error handler and no later hook, parser or handler runs.
    pressureHandler: async (request, _reply, type) => {
      if (shedExemptPaths.has(request.url.split('?', 1)[0]!)) return;
      metrics.http.shed.inc({ reason: type === 'healthCheck' ? 'queueDelay' : (type as ShedReason) });
      throw overloaded;
    },
  });
};
