/**
 * Loaded with `node --import` before server/main.ts (package.json "start"): with
 * OTEL_EXPORTER_OTLP_ENDPOINT set it starts the traces (server/core/tracing.ts) before the
 * server's first import of pg, ioredis or fastify; unset, it does nothing else and loads none of
 * OpenTelemetry (docs/operations.md "Traces"). The variable is read here, before the one config is
 * loaded, with that config's own rule for it.
 */
import { operationsConfigShape } from './core/config/operations-config.ts';

const endpoint = operationsConfigShape.OTEL_EXPORTER_OTLP_ENDPOINT.safeParse(process.env.OTEL_EXPORTER_OTLP_ENDPOINT);
// A bad value is left for loadConfig, which lists it with every other problem and stops the start.
if (endpoint.success && endpoint.data !== undefined) {
  const { startTracing } = await import('./core/tracing.ts');
  await startTracing(endpoint.data);
}
