import { describe, expect, it } from 'vitest';
import { refusalMessage } from '../../engine/wire/refusals.ts';
import { createApp } from '../../server/app.ts';
import { loadConfig } from '../../server/background/settings.ts';
import { openTestDb } from '../server/harness.ts';
import { openServicesHarness, openForSuite, testEnv } from './harness.ts';

/** No outside credentials at all: every service refuses with a clear error and credits nothing. */
describe('outside services without configuration (fail closed)', () => {
  const h = openForSuite(() => openServicesHarness('pglite'));

  it('ads: 503 adsUnconfigured in plain words, naming no setting; the Adsgram callback is closed', async () => {
    const u = await h.newPlayer();
    const r = await h.call('GET', '/start-watch-ads', u);
    expect(r.statusCode).toBe(503);
    expect(r.json()).toEqual({ error: 'Service Unavailable', message: refusalMessage('adsUnconfigured'), code: 'adsUnconfigured' });
    expect(r.body).not.toMatch(/[A-Z]+_[A-Z_]+/);
    expect((await h.call('GET', '/public/adsgram/reward', null, { query: { userid: String(u), key: '' } })).statusCode).toBe(503);
    const m = await h.db.query<{ total_money: string }>('SELECT total_money FROM users WHERE id = $1', [u]);
    expect(Number(m.rows[0]!.total_money)).toBe(0);
  });

  it('ads: the server log, not the player, names ADS_TOKEN_SECRET', async () => {
    const logged: string[] = [];
    const config = loadConfig(testEnv('pglite'));
    const db = await openTestDb(config, 'pglite');
    const app = await createApp({ db, config, logger: { level: 'warn', stream: { write: (line: string) => logged.push(line) } } });
    try {
      expect(logged.filter((line) => line.includes('ADS_TOKEN_SECRET is empty'))).toHaveLength(1);
    } finally {
      await app.close();
      await db.close();
    }
  });

  it('X: 503 outsideServiceUnavailable naming the service, never a setting', async () => {
    const u = await h.newPlayer();
    const r = await h.call('GET', '/social-login', u, { query: { redirect_to: 'https://money.example/app' } });
    expect(r.statusCode).toBe(503);
    expect(r.json()).toEqual({ error: 'Service Unavailable', message: 'The x check is unavailable right now, please try again later', code: 'outsideServiceUnavailable' });
  });

  it('broadcast: 503 naming BROADCAST_API_KEY, even with an empty key', async () => {
    const r = await h.call('POST', '/public/send-telemss', null, { body: { message: 'hi' }, headers: { 'x-api-key': '' } });
    expect(r.statusCode).toBe(503);
    expect(r.json().message).toMatch(/BROADCAST_API_KEY/);
  });

  it('test cron: a 404 like any unknown path', async () => {
    expect((await h.call('GET', '/public/test-cron', null)).statusCode).toBe(404);
  });

  it('answers 401 before validating the body or query of an authenticated call', async () => {
    for (const [method, path] of [['GET', '/start-watch-ads'], ['POST', '/claim-ads-reward'], ['GET', '/social-login'], ['GET', '/check-x-connect']] as const) {
      const r = await h.call(method, path, null, method === 'POST' ? { body: { bad: true } } : {});
      expect(r.statusCode, path).toBe(401);
    }
  });

  it('webhook: no route without WEBHOOK_URL', async () => {
    expect((await h.call('POST', '/public/telegram-webhook', null, { body: { update_id: 1 } })).statusCode).toBe(404);
  });
});
