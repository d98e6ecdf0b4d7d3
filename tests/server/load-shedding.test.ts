/**
 * Overload shedding (docs/faults.md "Overload"): past a SHED_* bound the real app refuses every
 * request `overloaded` before doing anything, except /livez and /metrics, and the edge's error
 * handler answers it 503 with Retry-After (SHED_RETRY_AFTER_S).
 * The heap bound makes the overload certain: a ratio of a millionth of V8's limit is always past.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPrefix } from '../../engine/api-types.ts';
import { refusalMessage } from '../../engine/refusals.ts';
import { createApp } from '../../server/app.ts';
import { manualClock } from '../../server/core/clock.ts';
import { loadConfig } from '../../server/core/config/config.ts';
import type { Db } from '../../server/core/db/db.ts';
import { installLoadShedding, queueSampleMin } from '../../server/core/load-shedding.ts';
import { signInitData } from '../../server/players/init-data.ts';
import { installErrorHandler } from '../../server/routes/error-handler.ts';
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
  const env = { METRICS_TOKEN: token, SHED_SAMPLE_MS: '10', SHED_EVENT_LOOP_DELAY_MS: '0', SHED_EVENT_LOOP_UTILIZATION: '0', SHED_QUEUE_DELAY_MS: '0' };
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

describe('load shedding: the queue of admitted requests', () => {
  let app: FastifyInstance;
  afterAll(async () => app?.close());

  it('sheds once even the fastest admitted request of a sample waited past the bound, and lets requests in again once the queue is gone', async () => {
    app = Fastify();
    // The edge answers the refusal, as in server/app.ts.
    installErrorHandler(app);
    const config = loadConfig(testEnv('pglite', { SHED_EVENT_LOOP_DELAY_MS: '0', SHED_HEAP_USED_RATIO: '0', SHED_QUEUE_DELAY_MS: '20', SHED_SAMPLE_MS: '50', SHED_RETRY_AFTER_S: '7' }));
    await installLoadShedding(app, config);
    let holdMs = 40;
    // A route whose answers wait, as clicks wait for their group's commit when the database lags.
    app.get('/wait', async () => {
      await new Promise((r) => setTimeout(r, holdMs));
      return { ok: true };
    });
    await app.ready();
    const pressed = () => (app as unknown as { isUnderPressure(): boolean }).isUnderPressure();
    // Ten admitted answers, the fastest over 20 ms: the next sample sees a standing queue.
    const first = await Promise.all(Array.from({ length: 10 }, () => app.inject({ method: 'GET', url: '/wait' })));
    expect(first.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    while (!pressed()) await new Promise((r) => setTimeout(r, 5));
    const shed = await app.inject({ method: 'GET', url: '/wait' });
    expect(shed.statusCode).toBe(503);
    expect(shed.headers['retry-after']).toBe('7');
    expect(shed.json()).toEqual({ error: 'Service Unavailable', message: refusalMessage('overloaded'), code: 'overloaded' });
    // A sample with no admitted answer has no queue: requests are let in again.
    holdMs = 0;
    while (pressed()) await new Promise((r) => setTimeout(r, 5));
    expect((await app.inject({ method: 'GET', url: '/wait' })).statusCode).toBe(200);
    await app.close();
  });

  it('takes a few slow answers for slow calls, not for a queue', async () => {
    app = Fastify();
    const config = loadConfig(testEnv('pglite', { SHED_EVENT_LOOP_DELAY_MS: '0', SHED_HEAP_USED_RATIO: '0', SHED_QUEUE_DELAY_MS: '20', SHED_SAMPLE_MS: '50' }));
    await installLoadShedding(app, config);
    app.get('/wait', async () => {
      await new Promise((r) => setTimeout(r, 40));
      return { ok: true };
    });
    await app.ready();
    let samples = 0;
    const sampled = new Promise<void>((resolve) => {
      const t = setInterval(() => {
        if (++samples >= 4) {
          clearInterval(t);
          resolve();
        }
      }, 50);
    });
    const slow = await Promise.all(Array.from({ length: queueSampleMin - 1 }, () => app.inject({ method: 'GET', url: '/wait' })));
    expect(slow.map((r) => r.statusCode)).toEqual(Array(queueSampleMin - 1).fill(200));
    await sampled;
    expect((app as unknown as { isUnderPressure(): boolean }).isUnderPressure()).toBe(false);
  });
});
