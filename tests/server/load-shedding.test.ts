/**
 * Overload shedding (docs/faults.md "Overload"): past a SHED_* bound the real app answers every
 * request 503 `overloaded` with Retry-After before doing anything, except /livez and /metrics.
 * The heap bound makes the overload certain: a ratio of a millionth of V8's limit is always past.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPrefix } from '../../engine/api-types.ts';
import { refusalMessage } from '../../engine/refusals.ts';
import { createApp } from '../../server/app.ts';
import { manualClock } from '../../server/core/clock.ts';
import { loadConfig } from '../../server/core/config/config.ts';
import type { Db } from '../../server/core/db/db.ts';
import { signInitData } from '../../server/players/init-data.ts';
import { backends, botToken, openTestDb, startMs, testEnv } from './harness.ts';

const token = 'shed-test-token-0123456789abcdef';

/** Until under-pressure has taken its first sample (it reads nothing before); a wait, not an assertion. */
const sampled = async (app: FastifyInstance): Promise<void> => {
  const usage = () => (app as unknown as { memoryUsage(): { heapUsed: number } }).memoryUsage();
  while (usage().heapUsed === 0) await new Promise((r) => setTimeout(r, 5));
};

describe.each(backends)('load shedding (%s)', (backend) => {
  let db: Db;
  let shedding: FastifyInstance;
  let calm: FastifyInstance;
  // Only the heap bound: the event loop of a test process on a shared machine is not a load we control.
  const env = { METRICS_TOKEN: token, SHED_SAMPLE_MS: '10', SHED_EVENT_LOOP_DELAY_MS: '0', SHED_EVENT_LOOP_UTILIZATION: '0' };
  beforeAll(async () => {
    const config = loadConfig(testEnv(backend, { ...env, SHED_HEAP_USED_RATIO: '0.000001' }));
    db = await openTestDb(config, backend);
    shedding = await createApp({ db, config, clock: manualClock(startMs), loadShedding: true });
    // The same database and defaults: a heap far from 90 % of its limit sheds nothing.
    calm = await createApp({ db, config: loadConfig(testEnv(backend, env)), clock: manualClock(startMs), loadShedding: true });
    await Promise.all([sampled(shedding), sampled(calm)]);
  });
  afterAll(async () => {
    await shedding?.close();
    await calm?.close();
    await db?.close();
  });

  const click = (app: FastifyInstance, userId: number, batchId: string) =>
    app.inject({
      method: 'POST',
      url: `${apiPrefix}/click`,
      headers: { authorization: `tma ${signInitData(botToken, { user: { id: userId, first_name: 'Shed' } }, startMs)}` },
      payload: { click: 2, batchId, seq: 1 },
    });
  const stored = async (batchId: string) => (await db.query('SELECT 1 FROM click_batches WHERE batch_id = $1', [batchId])).rows.length;

  it('answers a click 503 overloaded with Retry-After, and stores nothing', async () => {
    const r = await click(shedding, 7_100_000_001, 'shed-1');
    expect(r.statusCode).toBe(503);
    expect(r.headers['retry-after']).toBe('1');
    expect(r.json()).toEqual({ error: 'Service Unavailable', message: refusalMessage('overloaded'), code: 'overloaded' });
    expect(await stored('shed-1')).toBe(0);
    expect((await db.query('SELECT 1 FROM users WHERE id = $1', [7_100_000_001])).rows.length).toBe(0);
  });

  it('refuses before the body is read: a malformed body is still 503, not 400', async () => {
    const r = await shedding.inject({ method: 'POST', url: `${apiPrefix}/click`, headers: { 'content-type': 'application/json' }, payload: '{"click":' });
    expect(r.statusCode).toBe(503);
    expect(r.json()).toMatchObject({ code: 'overloaded' });
  });

  it('still answers /livez and /metrics, which counts the shed requests by bound', async () => {
    expect((await shedding.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    const m = await shedding.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
    expect(m.statusCode).toBe(200);
    const shed = Number(/^money_http_shed_total\{reason="heapUsedBytes"\} (\d+)$/m.exec(m.body)?.[1]);
    expect(shed).toBeGreaterThanOrEqual(2);
  });

  it('sheds nothing within the bounds: the same click is counted', async () => {
    const r = await click(calm, 7_100_000_002, 'shed-2');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ batchId: 'shed-2', accepted: 2 });
    expect(await stored('shed-2')).toBe(1);
  });
});
