/**
 * The operators' routes (docs/operations.md): /livez, /readyz and /healthz, and /metrics behind
 * METRICS_TOKEN, on the real app over PGlite (and PostgreSQL when DATABASE_URL is set).
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPrefix } from '../../engine/wire/api-types.ts';
import { createApp } from '../../server/app.ts';
import { manualClock } from '../../server/core/clock.ts';
import { loadConfig } from '../../server/background/settings.ts';
import type { Db } from '../../server/core/db/db.ts';
import { backends, botToken, openTestDb, startMs, testEnv } from './harness.ts';
import { signInitData } from '../../server/players/init-data.ts';

const token = 'probe-test-token-0123456789abcdef';
const root = resolve(import.meta.dirname, '../..');

describe.each(backends)('the probes and /metrics (%s)', (backend) => {
  let db: Db;
  let app: FastifyInstance;
  let bare: FastifyInstance;
  let draining = false;
  beforeAll(async () => {
    const config = loadConfig(testEnv(backend, { METRICS_TOKEN: token }));
    db = await openTestDb(config, backend);
    app = await createApp({ db, config, clock: manualClock(startMs), draining: () => draining });
    // The same database without METRICS_TOKEN: no /metrics at all.
    bare = await createApp({ db, config: loadConfig(testEnv(backend)), clock: manualClock(startMs) });
  });
  afterAll(async () => {
    await app?.close();
    await bare?.close();
    await db?.close();
  });

  const get = (path: string, headers: Record<string, string> = {}, on = app) => on.inject({ method: 'GET', url: path, headers });
  const metricsText = async () => {
    const r = await get('/metrics', { authorization: `Bearer ${token}` });
    expect(r.statusCode).toBe(200);
    return r.body;
  };

  it('/livez answers 200 while the event loop turns', async () => {
    const r = await get('/livez');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ ok: true });
  });

  it('/readyz answers 200 when the database answers and every migration is recorded', async () => {
    const r = await get('/readyz');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ ok: true });
  });

  it('/readyz answers 503 "migrations" while a migration this build knows is not recorded, and 200 once it is', async () => {
    const row = (await db.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version DESC LIMIT 1')).rows[0]!;
    await db.query('DELETE FROM schema_migrations WHERE version = $1', [row.version]);
    try {
      const r = await get('/readyz');
      expect(r.statusCode).toBe(503);
      expect(r.headers['retry-after']).toBe('1');
      expect(r.json()).toEqual({ ok: false, reason: 'migrations', message: expect.stringMatching(/1 of \d+ migrations is not applied/) });
    } finally {
      await db.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [row.version, row.name]);
    }
    expect((await get('/readyz')).statusCode).toBe(200);
  });

  it('/readyz answers 503 "draining" once shutdown has begun, while /livez stays 200', async () => {
    draining = true;
    try {
      const r = await get('/readyz');
      expect(r.statusCode).toBe(503);
      expect(r.json()).toMatchObject({ ok: false, reason: 'draining' });
      expect((await get('/livez')).statusCode).toBe(200);
    } finally {
      draining = false;
    }
  });

  it('/healthz still answers 200 {ok:true} when the database answers', async () => {
    const r = await get('/healthz');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ ok: true });
  });

  it('the OpenAPI document lists /livez, /readyz and /healthz, never /metrics', async () => {
    const doc = (await get(`${apiPrefix}/openapi.json`)).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/livez', '/readyz', '/healthz']));
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
  });

  it('/metrics answers 404 without the bearer token, with a wrong one, and when METRICS_TOKEN is unset', async () => {
    expect((await get('/metrics')).statusCode).toBe(404);
    expect((await get('/metrics', { authorization: 'Bearer wrong-token-0123456789abcdef' })).statusCode).toBe(404);
    expect((await get('/metrics', { authorization: token })).statusCode).toBe(404);
    expect((await get('/metrics', { authorization: `Bearer ${token}` }, bare)).statusCode).toBe(404);
  });

  it('/metrics answers the text format with the token: process metrics, the database probe, the series at 0', async () => {
    const r = await get('/metrics', { authorization: `Bearer ${token}` });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(r.body).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(r.body).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
    expect(r.body).toMatch(/^money_db_up\{pool="requests"\} 1$/m);
    expect(r.body).toMatch(/^money_broadcast_messages_total\{outcome="sent"\} 0$/m);
  });

  it('times requests by route pattern and status: ids never become labels, unknown paths share one label', async () => {
    const user = { id: 5_123_456_789, first_name: 'Probe' };
    const auth = { authorization: `tma ${signInitData(botToken, { user }, startMs)}` };
    expect((await app.inject({ method: 'GET', url: apiPrefix, headers: auth })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: `${apiPrefix}/click`, headers: auth, payload: { click: 3, batchId: 'probe-1' } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: `${apiPrefix}/click`, headers: auth, payload: { click: 0 } })).statusCode).toBe(400);
    expect((await get(`${apiPrefix}/no-such-route/5123456789`)).statusCode).toBe(404);
    expect((await get(`${apiPrefix}/jetton/wallet/0:${'ab'.repeat(32)}`)).statusCode).toBeGreaterThanOrEqual(400);
    const text = await metricsText();
    const count = (labels: string) => Number(new RegExp(`^money_http_request_duration_seconds_count\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    expect(count(`method="POST",route="${apiPrefix}/click",status="200"`)).toBeGreaterThanOrEqual(1);
    expect(count(`method="POST",route="${apiPrefix}/click",status="400"`)).toBeGreaterThanOrEqual(1);
    expect(count('method="GET",route="unmatched",status="404"')).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(new RegExp(`route="${apiPrefix}/jetton/wallet/:address"`));
    expect(text).not.toMatch(/5123456789|abababab/);
  });

  it('counts the taps of a click group: requested, accepted and clipped', async () => {
    const before = await metricsText();
    const user = { id: 5_123_456_790, first_name: 'Taps' };
    const auth = { authorization: `tma ${signInitData(botToken, { user }, startMs)}` };
    expect((await app.inject({ method: 'GET', url: apiPrefix, headers: auth })).statusCode).toBe(200);
    const r = await app.inject({ method: 'POST', url: `${apiPrefix}/click`, headers: auth, payload: { click: 100_000, batchId: 'probe-taps' } });
    expect(r.statusCode).toBe(200);
    const accepted = r.json<{ accepted: number }>().accepted;
    const after = await metricsText();
    const value = (text: string, name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);
    expect(value(after, 'money_click_taps_requested_total') - value(before, 'money_click_taps_requested_total')).toBe(100_000);
    expect(value(after, 'money_click_taps_accepted_total') - value(before, 'money_click_taps_accepted_total')).toBe(accepted);
    expect(value(after, 'money_click_taps_clipped_total') - value(before, 'money_click_taps_clipped_total')).toBe(100_000 - accepted);
  });
});

describe('METRICS_TOKEN', () => {
  it('is refused, naming it, when it is short or holds spaces; unset or empty means no /metrics', () => {
    expect(() => loadConfig(testEnv('pglite', { METRICS_TOKEN: 'short' }))).toThrow(/METRICS_TOKEN: must be 16–256 visible ASCII characters/);
    expect(() => loadConfig(testEnv('pglite', { METRICS_TOKEN: 'has a space in it, 0123456789' }))).toThrow(/METRICS_TOKEN/);
    expect(loadConfig(testEnv('pglite', { METRICS_TOKEN: '' })).METRICS_TOKEN).toBeUndefined();
    expect(loadConfig(testEnv('pglite', { METRICS_TOKEN: token })).METRICS_TOKEN).toBe(token);
  });
});

describe('draining', () => {
  it('starts with the first SIGTERM, before any shutdown step runs', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/fixtures/drain.ts'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
    const bail = setTimeout(() => child.kill('SIGKILL'), 30_000);
    try {
      while (!out.includes('ready') && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
      expect(out).toMatch(/draining before the signal: false/);
      child.kill('SIGTERM');
      expect(await exited, out).toBe(0);
      expect(out).toMatch(/draining in the first step: true/);
    } finally {
      clearTimeout(bail);
    }
  });
});

// A closed database (PGlite closed, or the pool ended): /livez does not care, /readyz says so.
describe('with the database gone', () => {
  it('/livez still answers 200 and /readyz 503 "database"', async () => {
    const config = loadConfig(testEnv('pglite'));
    const db = await openTestDb(config, 'pglite');
    const app = await createApp({ db, config, clock: manualClock(startMs) });
    try {
      await db.close();
      expect((await app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
      const r = await app.inject({ method: 'GET', url: '/readyz' });
      expect(r.statusCode).toBe(503);
      expect(r.json()).toMatchObject({ ok: false, reason: 'database' });
    } finally {
      await app.close();
    }
  });
});
