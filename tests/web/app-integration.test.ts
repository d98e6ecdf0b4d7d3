import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPrefix, type UserStatus } from '../../engine/wire/api-types.ts';
import { createApp } from '../../server/app.ts';
import { manualClock } from '../../server/core/clock.ts';
import { loadConfig } from '../../server/background/settings.ts';
import { openDb, type Db } from '../../server/core/db/db.ts';
import { registerDevLaunch } from '../../server/dev/dev-routes.ts';
import { demoUser, initDataOf, launchUrl } from '../../server/dev/launch-url.ts';
import { publicConfigOf } from '../../server/web/public-config.ts';
import { registerWeb } from '../../server/web/web-plugin.ts';

const botToken = '7000000001:AAdevelopmentTokenForTheWebLayerTest_';

/** The API of createApp and the web layer on one instance, as server/main.ts puts them together. */
describe('web layer on the real API', () => {
  let app: FastifyInstance;
  let db: Db;
  let dist: string;
  const clock = manualClock(Date.UTC(2026, 10, 22, 5, 0, 0));
  const config = loadConfig({ BOT_TOKEN: botToken, TWITTER_URL: 'https://x.com/integration' });

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'money-dist-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><html><body><!--money-config--><div id="root"></div></body></html>');
    db = await openDb(config, { inMemory: true });
    app = await createApp({ db, config, clock });
    await registerWeb(app, { distDir: dist, publicConfig: publicConfigOf(config), https: false });
    registerDevLaunch(app, { botToken, clock });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('the demo launch signs in through the API’s own init data check', async () => {
    const url = launchUrl({ publicUrl: 'http://localhost:3000', botToken, nowMs: clock.now() });
    const res = await app.inject({ url: apiPrefix, headers: { authorization: `tma ${initDataOf(url)}` } });
    expect(res.statusCode).toBe(200);
    const status = res.json<UserStatus>();
    expect(status.id).toBe(String(demoUser.id));
    expect(status.teleUsername).toBe(demoUser.username);
  });

  it('init data signed with another token is refused by the API', async () => {
    const url = launchUrl({ publicUrl: '', botToken: '7000000002:AAsomeOtherTokenThatIsNotOurs_____', nowMs: clock.now() });
    const res = await app.inject({ url: apiPrefix, headers: { authorization: `tma ${initDataOf(url)}` } });
    expect(res.statusCode).toBe(401);
  });

  it('/dev/launch hands out a link the API accepts, with the referral code as start parameter', async () => {
    const res = await app.inject('/dev/launch?user=6100000001&username=friend_one');
    const auth = `tma ${initDataOf(String(res.headers.location))}`;
    const me = await app.inject({ url: apiPrefix, headers: { authorization: auth } });
    expect(me.json<UserStatus>().id).toBe('6100000001');
  });

  it('API answers carry the API policy, pages the site policy, and config values reach the page', async () => {
    const stats = await app.inject(`${apiPrefix}/public/stats`);
    expect(stats.statusCode).toBe(200);
    expect(stats.headers['content-security-policy']).toContain("default-src 'none'");
    expect(stats.headers['x-content-type-options']).toBe('nosniff');
    const page = await app.inject('/');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.body).toContain('"twitterUrl":"https://x.com/integration"');
    const missing = await app.inject(`${apiPrefix}/no-such-call`);
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/json/);
  });
});
