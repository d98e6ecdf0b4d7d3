import { describe, expect, it } from 'vitest';
import { configSchemaOf, loadSettings } from './config.ts';

const loadConfig = (env: Record<string, string | undefined>) => loadSettings(configSchemaOf({}), env);

describe('operations settings', () => {
  it('defaults: shed at 256 API requests in flight, or above 32 past 50 ms of loop delay or queue or 90 % of the heap; no traces; no replica, 5 s lag bound checked every second', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      SHED_IN_FLIGHT_FLOOR: 32,
      SHED_MAX_IN_FLIGHT: 256,
      SHED_LOG_INTERVAL_MS: 5_000,
      SHED_EVENT_LOOP_DELAY_MS: 50,
      SHED_EVENT_LOOP_UTILIZATION: 0,
      SHED_HEAP_USED_RATIO: 0.9,
      SHED_QUEUE_DELAY_MS: 50,
      SHED_SAMPLE_MS: 200,
      SHED_RETRY_AFTER_S: 1,
      REPLICA_MAX_LAG_MS: 5_000,
      REPLICA_CHECK_MS: 1_000,
    });
    expect(c.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect(c.DATABASE_REPLICA_URL).toBeUndefined();
  });

  it('refuses a replica without a PostgreSQL primary, naming the variable', () => {
    expect(() => loadConfig({ DATABASE_REPLICA_URL: 'postgres://replica:5432/money' })).toThrow(/^ {2}- DATABASE_REPLICA_URL: needs DATABASE_URL/m);
    expect(loadConfig({ DATABASE_URL: 'postgres://primary:5432/money', DATABASE_REPLICA_URL: 'postgres://replica:5432/money' }).DATABASE_REPLICA_URL).toBe('postgres://replica:5432/money');
  });

  it('refuses a floor above the bound of requests in flight, naming the floor', () => {
    expect(() => loadConfig({ SHED_IN_FLIGHT_FLOOR: '300' })).toThrow(/^ {2}- SHED_IN_FLIGHT_FLOOR: must not be above SHED_MAX_IN_FLIGHT/m);
    expect(loadConfig({ SHED_IN_FLIGHT_FLOOR: '300', SHED_MAX_IN_FLIGHT: '300' }).SHED_IN_FLIGHT_FLOOR).toBe(300);
  });

  it('refuses out-of-range bounds and a non-URL endpoint, naming each variable', () => {
    const start = () => loadConfig({ SHED_HEAP_USED_RATIO: '1.5', SHED_SAMPLE_MS: '0', REPLICA_MAX_LAG_MS: 'soon', OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' });
    for (const key of ['SHED_HEAP_USED_RATIO', 'SHED_SAMPLE_MS', 'REPLICA_MAX_LAG_MS', 'OTEL_EXPORTER_OTLP_ENDPOINT']) expect(start).toThrow(new RegExp(`^ {2}- ${key}: `, 'm'));
  });
});
