/**
 * OpenTelemetry traces on demand (docs/operations.md "Traces"): with OTEL_EXPORTER_OTLP_ENDPOINT
 * set, `startTracing` (run by server/tracing-preload.ts before any of the server's modules load)
 * sends spans over OTLP/HTTP for every request (@fastify/otel), every PostgreSQL statement
 * (instrumentation-pg) and every Redis command (instrumentation-ioredis), plus the click path's own
 * spans (`traced` below). Unset, none of OpenTelemetry's code is loaded: `traced` calls its
 * function straight through and `activeSpanContext` answers undefined.
 */
import { createRequire } from 'node:module';
import type { Attributes, Link, SpanContext, Tracer } from '@opentelemetry/api';

let tracer: Tracer | undefined;
let activeContext: (() => SpanContext | undefined) | undefined;

/** True once `startTracing` has run in this process. */
export const tracingStarted = (): boolean => tracer !== undefined;

let shutdown: (() => Promise<void>) | undefined;

/** Sends the spans still buffered and stops the tracer; nothing when tracing is off (a shutdown step bounds it). */
export const stopTracing = async (): Promise<void> => shutdown?.();

/**
 * Starts the tracer provider, the exporter and the instrumentations. Must run before `pg`,
 * `ioredis` and `fastify` are first imported: the instrumentations hook `require`, and this
 * function requires `pg` and `ioredis` itself so that their prototypes are patched in place — the
 * server's ESM imports of these CommonJS packages then get the same, patched modules.
 */
export const startTracing = async (endpoint: string): Promise<void> => {
  const [{ trace }, { NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }, { registerInstrumentations }, { PgInstrumentation }, { IORedisInstrumentation }, fastifyOtel] =
    await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/instrumentation'),
      import('@opentelemetry/instrumentation-pg'),
      import('@opentelemetry/instrumentation-ioredis'),
      import('@fastify/otel'),
    ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'money' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }))],
  });
  // The global provider and the AsyncLocalStorage context manager: a span started in a request
  // is the parent of what that request awaits, the click group it starts included.
  provider.register();
  const FastifyOtelInstrumentation = fastifyOtel.default ?? fastifyOtel.FastifyOtelInstrumentation;
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      // Statements are named by their operation; parameters (players' ids, amounts) are never sent.
      new PgInstrumentation({ enhancedDatabaseReporting: false }),
      new IORedisInstrumentation(),
      // Every Fastify instance created from now on registers the plugin itself (diagnostics channel).
      new FastifyOtelInstrumentation({ registerOnInitialization: true, ignorePaths: (opts: { url: string }) => opts.url === '/livez' || opts.url === '/metrics' }),
    ],
  });
  const require = createRequire(import.meta.url);
  require('pg');
  require('ioredis');
  tracer = trace.getTracer('money');
  activeContext = () => trace.getActiveSpan()?.spanContext();
  shutdown = () => provider.shutdown();
};

/**
 * Runs `fn` in a span named `name` (a child of the active span) when tracing is on; otherwise
 * calls it and nothing else. `links` tie a span to others it serves (a click group to each request
 * whose batch it writes).
 */
export const traced = <T>(name: string, fn: () => Promise<T>, attributes?: Attributes, links?: readonly Link[]): Promise<T> => {
  if (tracer === undefined) return fn();
  return tracer.startActiveSpan(name, { ...(attributes !== undefined ? { attributes } : {}), ...(links !== undefined ? { links: [...links] } : {}) }, async (span) => {
    try {
      return await fn();
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: 2 /* SpanStatusCode.ERROR */, message: (err as Error).message });
      throw err;
    } finally {
      span.end();
    }
  });
};

/** The active span's context, to link to later; undefined when tracing is off. */
export const activeSpanContext = (): SpanContext | undefined => activeContext?.();
