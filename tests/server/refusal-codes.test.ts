/**
 * Refusals as clients receive them (docs/api.md "Errors"): every code of engine/wire/refusals.ts has
 * its status in the edge's one table, and representative refusals of each kind come back with
 * their code, field, status and English message, on the real app.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../engine/wire/api-types.ts';
import { refusalCodes, refusalMessage } from '../../engine/wire/refusals.ts';
import { createApp } from '../../server/app.ts';
import { manualClock } from '../../server/core/clock.ts';
import { loadConfig } from '../../server/background/settings.ts';
import { openDb, type Db } from '../../server/core/db/db.ts';
import { refuse } from '../../server/core/errors.ts';
import { installErrorHandler } from '../../server/routes/error-handler.ts';
import { reasonOfStatus, retryAfterOfCode, statusOfCode } from '../../server/routes/refusal-status.ts';
import { openServicesHarness } from '../services/harness.ts';
import { backends, botToken, openForSuite, openTestDb, startMs, testEnv } from './harness.ts';
import { signInitData } from '../../server/players/init-data.ts';
import { apiPrefix } from '../../engine/wire/api-types.ts';

describe('the edge’s table of statuses', () => {
  it('gives every code an error status with a reason phrase, and nothing that is not a code', () => {
    expect(Object.keys(statusOfCode).sort()).toEqual([...refusalCodes].sort());
    for (const code of refusalCodes) {
      const status = statusOfCode[code];
      expect(status >= 400 && status <= 599, code).toBe(true);
      expect(reasonOfStatus[status], `${code} ${status}`).toBeDefined();
    }
  });

  it('sends Retry-After only with a 503', () => {
    for (const [code, seconds] of Object.entries(retryAfterOfCode)) {
      expect(statusOfCode[code as keyof typeof statusOfCode], code).toBe(503);
      expect(seconds).toBeGreaterThan(0);
    }
  });
});

describe('the one error handler', () => {
  it('answers a broken invariant (negativeCredit) as 500 internalError and logs it with its cause', async () => {
    const logged: string[] = [];
    const app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => logged.push(line) } } });
    installErrorHandler(app);
    app.post('/credit', async () => {
      throw refuse('negativeCredit', { values: { amount: '-1' }, cause: new Error('the caller passed -1') });
    });
    try {
      const r = await app.inject({ method: 'POST', url: '/credit' });
      expect(r.statusCode).toBe(500);
      expect(r.json<ErrorBody>()).toEqual({ error: 'Internal Server Error', message: refusalMessage('internalError'), code: 'internalError' });
      expect(logged.join('')).toMatch(/a credit must not be negative/);
      expect(logged.join('')).toMatch(/the caller passed -1/);
    } finally {
      await app.close();
    }
  });

  it('sends the Retry-After a refusal carries (overloaded: SHED_RETRY_AFTER_S) before the table’s', async () => {
    const app = Fastify();
    installErrorHandler(app);
    // As the load shedding does: one frozen refusal thrown for every request, which the handler only reads.
    const overloaded = Object.freeze(refuse('overloaded', { retryAfterS: 7 }));
    app.get('/busy', async () => {
      throw overloaded;
    });
    app.get('/away', async () => {
      throw refuse('databaseAway');
    });
    try {
      for (let i = 0; i < 2; i++) {
        const busy = await app.inject({ method: 'GET', url: '/busy' });
        expect(busy.statusCode).toBe(503);
        expect(busy.headers['retry-after']).toBe('7');
        expect(busy.json<ErrorBody>()).toEqual({ error: 'Service Unavailable', message: refusalMessage('overloaded'), code: 'overloaded' });
      }
      const away = await app.inject({ method: 'GET', url: '/away' });
      expect(away.headers['retry-after']).toBe(String(retryAfterOfCode.databaseAway));
    } finally {
      await app.close();
    }
  });

  it('answers the framework’s own 413 with its status and requestRefused', async () => {
    const app = Fastify({ bodyLimit: 100 });
    installErrorHandler(app);
    app.post('/big', async () => ({ ok: true }));
    try {
      const r = await app.inject({ method: 'POST', url: '/big', payload: { text: 'x'.repeat(200) } });
      expect(r.statusCode).toBe(413);
      expect(r.json<ErrorBody>()).toMatchObject({ error: 'Payload Too Large', code: 'requestRefused' });
    } finally {
      await app.close();
    }
  });
});

describe.each(backends)('refusals on the wire (%s)', (backend) => {
  const apiKey = 'broadcast-key-0123456789';
  // ONUS points at a port nothing listens on: its check fails as the partner being down.
  const h = openForSuite(() => openServicesHarness(backend, { BROADCAST_API_KEY: apiKey, ONUS_CHECK_URL: 'http://127.0.0.1:9/onus/check', ONUS_API_KEY: 'onus-key' }));

  it('player: an upgrade the player cannot afford is 400 upgradeUnaffordable naming levelKey', async () => {
    const u = await h.newPlayer();
    const r = await h.call('POST', '/update-level', u, { body: { levelKey: 1 } });
    expect(r.statusCode).toBe(400);
    expect(r.json<ErrorBody>()).toEqual({ error: 'Bad Request', message: 'Not enough money for this upgrade', field: 'levelKey', code: 'upgradeUnaffordable' });
  });

  it('player: an unknown task is 404 taskNotFound naming task_id, its id in the English', async () => {
    const u = await h.newPlayer();
    const r = await h.call('POST', '/claim-task', u, { query: { task_id: '999999' }, body: {} });
    expect(r.statusCode).toBe(404);
    expect(r.json<ErrorBody>()).toEqual({ error: 'Not Found', message: 'Task 999999 not found', field: 'task_id', code: 'taskNotFound' });
  });

  it('player: an unknown field of a body is 400 unknownParameter naming it, and nothing is counted', async () => {
    const u = await h.newPlayer();
    const r = await h.call('POST', '/click', u, { body: { click: 5, bonus: 1 } });
    expect(r.statusCode).toBe(400);
    expect(r.json<ErrorBody>()).toEqual({ error: 'Bad Request', message: 'Unknown parameter "bonus"', field: 'bonus', code: 'unknownParameter' });
    const row = await h.db.query<{ total_click: number }>('SELECT total_click FROM users WHERE id = $1', [u]);
    expect(Number(row.rows[0]!.total_click)).toBe(0);
  });

  it('player: no init data is 401 initDataMissing; invalid JSON and an unknown path have codes too', async () => {
    const r = await h.call('GET', '', null);
    expect(r.statusCode).toBe(401);
    expect(r.json<ErrorBody>()).toEqual({ error: 'Unauthorized', message: refusalMessage('initDataMissing'), code: 'initDataMissing' });
    const u = await h.newPlayer();
    const bad = await h.app.inject({ method: 'POST', url: `${apiPrefix}/click`, headers: { authorization: `tma ${h.initData(u)}`, 'content-type': 'application/json' }, payload: '{"click":' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<ErrorBody>()).toEqual({ error: 'Bad Request', message: 'Request body is not valid JSON', code: 'invalidJson' });
    const none = await h.call('GET', '/no-such-call', null);
    expect(none.statusCode).toBe(404);
    expect(none.json<ErrorBody>()).toEqual({ error: 'Not Found', message: `No route GET ${apiPrefix}/no-such-call`, code: 'noRoute' });
  });

  it('operator: a broadcast that does not exist is 404 broadcastNotFound naming broadcastId', async () => {
    const r = await h.call('GET', '/public/send-telemss/987654', null, { headers: { 'x-api-key': apiKey } });
    expect(r.statusCode).toBe(404);
    expect(r.json<ErrorBody>()).toEqual({ error: 'Not Found', message: 'Broadcast 987654 not found', field: 'broadcastId', code: 'broadcastNotFound' });
    const wrong = await h.call('GET', '/public/send-telemss/987654', null, { headers: { 'x-api-key': 'not-the-key' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json<ErrorBody>()).toMatchObject({ message: 'Wrong x-api-key', code: 'wrongApiKey' });
  });

  it('an outside service down is 503 outsideServiceUnavailable naming the service, never its address', async () => {
    const u = await h.newPlayer();
    const r = await h.call('POST', '/check-task', u, { body: { taskId: 21, inputValue: '100200' } });
    expect(r.statusCode).toBe(503);
    expect(r.json<ErrorBody>()).toEqual({ error: 'Service Unavailable', message: 'The onus check is unavailable right now, please try again later', code: 'outsideServiceUnavailable' });
    expect(r.body).not.toMatch(/127\.0\.0\.1|ONUS_/);
  });
});

describe.each(backends)('the database away (%s)', (backend) => {
  // The app's database cable: the test's database while the app starts, then a PostgreSQL that
  // nobody answers at, so every statement fails as the database being unreachable.
  let app: Awaited<ReturnType<typeof createApp>>;
  let away = false;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const config = loadConfig(testEnv(backend));
    const live = await openTestDb(config, backend);
    const gone = await openDb(loadConfig(testEnv('postgres', { DATABASE_URL: 'postgres://postgres@127.0.0.1:9/away' })), { migrate: false, connectTimeoutMs: 500 });
    const now = (): Db => (away ? gone : live);
    const cable: Db = {
      kind: live.kind,
      query: (sql, params, opts) => now().query(sql, params, opts),
      exec: (sql) => now().exec(sql),
      transaction: (fn) => now().transaction(fn),
      close: async () => {
        await live.close();
        await gone.close();
      },
    };
    app = await createApp({ db: cable, config, clock: manualClock(startMs) });
    close = async () => {
      await app.close();
      await cable.close();
    };
  });
  afterAll(async () => close?.());

  it('is 503 databaseAway with Retry-After: 1, and the same call succeeds once it is back', async () => {
    const initData = signInitData(botToken, { user: { id: 6_100_000_001, first_name: 'Away' } }, startMs);
    const status = () => app.inject({ method: 'GET', url: apiPrefix, headers: { authorization: `tma ${initData}` } });
    away = true;
    const r = await status();
    expect(r.statusCode).toBe(503);
    expect(r.headers['retry-after']).toBe('1');
    expect(r.json<ErrorBody>()).toEqual({ error: 'Service Unavailable', message: refusalMessage('databaseAway'), code: 'databaseAway' });
    away = false;
    expect((await status()).statusCode).toBe(200);
  });
});
