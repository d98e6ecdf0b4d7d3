/**
 * How the server protects itself and what it tells operators: load shedding (docs/faults.md
 * "Overload"), traces (docs/operations.md "Traces") and the read replica (docs/scaling.md "Read
 * replica"). Spread into the one config schema in server/core/config/config.ts; every key is the
 * env variable's own name.
 */
import { z } from 'zod';

const emptyIsUnset = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

export const operationsConfigShape = {
  /**
   * Below this many API requests in flight nothing is shed, whatever the samples say: a lone
   * request, a player's first burst and a process starved of CPU by a neighbour are not overload.
   */
  SHED_IN_FLIGHT_FLOOR: z.coerce.number().int().min(1).max(100_000).default(32),
  /** At this many API requests in flight every further one is shed; the queue's bound. */
  SHED_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(100_000).default(256),
  /** Above the floor, shed (503) while the event loop's mean delay over the last sample is above this, in ms; 0 turns the check off. */
  SHED_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(50),
  /**
   * Shed while the event loop was busy more than this share of the last sample (0–1); 0, the
   * default, turns the check off: a loop busy all the time with short waits is a process doing its
   * best, and the delay above is what says requests have started to queue.
   */
  SHED_EVENT_LOOP_UTILIZATION: z.coerce.number().min(0).max(1).default(0),
  /** Shed while the V8 heap in use is above this share of its limit (0–1); 0 turns the check off. */
  SHED_HEAP_USED_RATIO: z.coerce.number().min(0).max(1).default(0.9),
  /**
   * The wait an admitted request may have, in ms: above the floor, a request is shed when more are
   * in flight than the process has shown it answers in this time (Little's law). 0 turns it off.
   */
  SHED_QUEUE_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(50),
  /** How often the bounds are sampled, in ms: a sample decides for every request until the next one. */
  SHED_SAMPLE_MS: z.coerce.number().int().min(10).max(10_000).default(200),
  /** The Retry-After of a shed request, in seconds. */
  SHED_RETRY_AFTER_S: z.coerce.number().int().min(1).max(3_600).default(1),
  /** A shed request logs nothing of its own: one summary line this often (ms) while shedding goes on. */
  SHED_LOG_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(5_000),
  /**
   * On SIGTERM, the longest the process keeps serving, in ms, until every balancer that polls
   * /readyz has been answered "draining" SHUTDOWN_NOTICE_CHECKS times (docs/faults.md "Stopping").
   */
  SHUTDOWN_NOTICE_MAX_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  /** How many "draining" answers a balancer needs to take the process out (HAProxy's `fall`, 2 in ops/ha/haproxy.cfg). */
  SHUTDOWN_NOTICE_CHECKS: z.coerce.number().int().min(1).max(10).default(2),
  /**
   * OpenTelemetry traces go to this OTLP/HTTP endpoint (`http://collector:4318`); unset, nothing
   * is traced and no OpenTelemetry code is loaded. The SDK reads the other OTEL_* variables itself.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: emptyIsUnset.pipe(z.url({ protocol: /^https?$/ }).optional()),
  /** A PostgreSQL streaming replica for the social reads (leaderboard, friends, public stats, console reads). */
  DATABASE_REPLICA_URL: emptyIsUnset.pipe(z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL').optional()),
  /** Past this replay lag, in ms, the replica's reads go to the primary until it catches up. */
  REPLICA_MAX_LAG_MS: z.coerce.number().int().min(100).max(3_600_000).default(5_000),
  /** How often the replica's lag and health are checked, in ms (never per request). */
  REPLICA_CHECK_MS: z.coerce.number().int().min(100).max(60_000).default(1_000),
};
