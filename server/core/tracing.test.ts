import { describe, expect, it } from 'vitest';
import { activeSpanContext, stopTracing, traced, tracingStarted } from './tracing.ts';

describe('traces when OTEL_EXPORTER_OTLP_ENDPOINT is unset', () => {
  it('are never started: a traced piece of work is the work itself, its errors unchanged', async () => {
    expect(tracingStarted()).toBe(false);
    expect(await traced('click group write', async () => 42, { 'money.click.batches': 1 })).toBe(42);
    const err = new Error('the database is away');
    await expect(traced('click group commit', async () => Promise.reject(err))).rejects.toBe(err);
    expect(activeSpanContext()).toBeUndefined();
    await expect(stopTracing()).resolves.toBeUndefined();
  });
});
