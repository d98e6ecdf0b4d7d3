import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { initDataSecret, verifyInitData } from '../../server/players/init-data.ts';
import { installErrorHandler } from '../../server/routes/error-handler.ts';
import { offsetClock, registerDevLaunch, registerTestClock, testClockPath } from '../../server/dev/dev-routes.ts';
import { devTokenFile, resolveBotToken } from '../../server/dev/dev-token.ts';
import { demoUser, initDataOf, launchUrl } from '../../server/dev/launch-url.ts';

const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'money-dev-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const now = Date.UTC(2026, 10, 22, 4, 0, 0);

describe('development bot token', () => {
  it('is made once, kept in DATA_DIR and reused on the next start', () => {
    const dir = tempDir();
    const first = resolveBotToken(undefined, dir);
    expect(first.development).toBe(true);
    expect(first.token).toMatch(/^\d+:[A-Za-z0-9_-]{20,}$/);
    expect(readFileSync(join(dir, devTokenFile), 'utf8').trim()).toBe(first.token);
    expect(resolveBotToken(undefined, dir)).toEqual(first);
    expect(resolveBotToken(undefined, tempDir()).token).not.toBe(first.token);
  });

  it('is not used when BOT_TOKEN is set', () => {
    expect(resolveBotToken('123:abcdefghijklmnopqrstuvwxyz', tempDir())).toEqual({ token: '123:abcdefghijklmnopqrstuvwxyz', development: false });
  });
});

describe('demo launch URL', () => {
  const { token } = resolveBotToken(undefined, tempDir());

  it('carries init data that the server verification accepts, for the demo user', () => {
    const url = launchUrl({ publicUrl: 'http://localhost:3000/', botToken: token, nowMs: now });
    expect(url.startsWith('http://localhost:3000/app#tgWebAppData=')).toBe(true);
    const hash = new URLSearchParams(new URL(url).hash.slice(1));
    expect(hash.get('tgWebAppVersion')).toBe('8.0');
    expect(hash.get('tgWebAppPlatform')).toBe('web');
    expect(JSON.parse(hash.get('tgWebAppThemeParams') ?? '')).toHaveProperty('bg_color');
    const check = verifyInitData(initDataOf(url), initDataSecret(token), now + 60_000, 86_400);
    expect(check).toMatchObject({ ok: true, data: { user: { id: demoUser.id, username: demoUser.username }, authDate: now / 1000 } });
  });

  it('is refused when signed with another token or tampered with', () => {
    const url = launchUrl({ publicUrl: 'http://localhost:3000', botToken: token, nowMs: now });
    const other = resolveBotToken(undefined, tempDir()).token;
    expect(verifyInitData(initDataOf(url), initDataSecret(other), now, 86_400)).toMatchObject({ ok: false, reason: 'forged' });
    const tampered = initDataOf(url).replace(String(demoUser.id), '1');
    expect(verifyInitData(tampered, initDataSecret(token), now, 86_400)).toMatchObject({ ok: false, reason: 'forged' });
  });

  it('puts a start parameter in the init data and in tgWebAppStartParam, as Telegram does', () => {
    const url = launchUrl({ publicUrl: 'http://localhost:3000', botToken: token, nowMs: now, startParam: 'Ab12Cd', user: { id: 42, first_name: 'Friend' } });
    expect(new URL(url).searchParams.get('tgWebAppStartParam')).toBe('Ab12Cd');
    expect(verifyInitData(initDataOf(url), initDataSecret(token), now, 86_400)).toMatchObject({ ok: true, data: { user: { id: 42 }, startParam: 'Ab12Cd' } });
  });
});

describe('development routes', () => {
  it('GET /dev/launch redirects to a freshly signed launch URL for the asked user', async () => {
    const { token } = resolveBotToken(undefined, tempDir());
    const clock = offsetClock({ now: () => now });
    const app = Fastify();
    // As on the real server (server/app.ts), a refusal is answered by the edge's one handler.
    installErrorHandler(app);
    registerDevLaunch(app, { botToken: token, clock });
    const res = await app.inject('/dev/launch?user=777&username=friend&start=Zz99Yy');
    expect(res.statusCode).toBe(302);
    expect(String(res.headers.location)).toMatch(/^\/app\?tgWebAppStartParam=Zz99Yy#tgWebAppData=/);
    const check = verifyInitData(initDataOf(String(res.headers.location)), initDataSecret(token), now, 86_400);
    expect(check).toMatchObject({ ok: true, data: { user: { id: 777, username: 'friend' }, startParam: 'Zz99Yy' } });
    expect((await app.inject('/dev/launch?user=abc')).statusCode).toBe(400);
    await app.close();
  });

  it('the test clock moves only forward, by whole milliseconds', async () => {
    const clock = offsetClock({ now: () => now });
    const app = Fastify();
    // As on the real server (server/app.ts), a refusal is answered by the edge's one handler.
    installErrorHandler(app);
    registerTestClock(app, clock);
    const moved = await app.inject({ method: 'POST', url: testClockPath, payload: { advanceMs: 3_600_000 } });
    expect(moved.json()).toEqual({ now: now + 3_600_000 });
    expect(clock.now()).toBe(now + 3_600_000);
    for (const advanceMs of [-1, 1.5, '10', undefined]) {
      const bad = await app.inject({ method: 'POST', url: testClockPath, payload: { advanceMs } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().field).toBe('advanceMs');
    }
    expect(clock.now()).toBe(now + 3_600_000);
    await app.close();
  });
});
