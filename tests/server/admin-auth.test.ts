import { describe, expect, it } from 'vitest';
import { adminApiPrefix, csrfHeader } from '../../engine/wire/admin-types.ts';
import { signInitData } from '../../server/players/init-data.ts';
import { signLoginWidget } from '../../server/console/login-widget.ts';
import { adminId, openAdminHarness, origin } from './admin-harness.ts';
import { backends, botToken, openForSuite } from './harness.ts';

/** Every console route behind the session (sign-in routes excepted). */
const routes: ['GET' | 'POST' | 'PUT', string][] = [
  ['GET', '/session'], ['POST', '/logout'],
  ['GET', '/players?q=a'], ['GET', '/players/1'], ['GET', '/players/1/ledger'], ['GET', '/players/1/referrals'], ['POST', '/players/1/freeze'],
  ['GET', '/cheats'], ['GET', '/tasks'], ['POST', '/tasks'], ['PUT', '/tasks/1'], ['POST', '/tasks/reorder'], ['GET', '/audit'],
  ['GET', '/dashboard'], ['GET', '/broadcasts'], ['GET', '/broadcasts/1'], ['POST', '/broadcasts'], ['POST', '/broadcasts/1/cancel'],
  ['GET', '/forecast'], ['POST', '/forecast/settle'], ['GET', '/airdrop'], ['POST', '/airdrop/snapshot'],
  ['GET', '/daily'], ['PUT', '/daily/2030-01-01'],
  ['GET', '/integrity/flags'], ['GET', '/integrity/players/1'], ['POST', '/integrity/players/1/appeal'], ['POST', '/integrity/players/1/decision'],
  ['GET', '/shop'], ['GET', '/shop/orders'], ['POST', '/shop/items/1'], ['POST', '/shop/orders/1/refund'], ['POST', '/shop/payments/1/refund'],
];
const writes = routes.filter(([m]) => m !== 'GET');

describe.each(backends)('console sign-in and sessions (%s)', (backend) => {
  const h = openForSuite(() => openAdminHarness(backend));

  it('lists every console route here, so none escapes the checks below', () => {
    // printRoutes draws a tree: each line's depth is its indent (4 characters a level), its path the parent's plus its own.
    const stack: string[] = [];
    const registered: string[] = [];
    for (const line of h.app.printRoutes({ commonPrefix: false }).split('\n')) {
      const m = /^([│ ]*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?/.exec(line);
      if (!m) continue;
      const depth = m[1]!.length / 4;
      stack.length = depth;
      stack.push(m[2]!);
      const path = stack.join('');
      if (m[3] && path.startsWith(adminApiPrefix))
        registered.push(...m[3].split(', ').filter((x) => x !== 'HEAD').map((x) => `${x} ${path.slice(adminApiPrefix.length)}`));
    }
    const listed = new Set(routes.map(([m, p]) => `${m} ${p.split('?')[0]!.replace(/\/1(?=\/|$)/, '/:id').replace(/\/\d{4}-\d{2}-\d{2}$/, '/:day')}`));
    const guarded = registered.filter((r) => !r.includes('/login/'));
    expect(guarded.length).toBeGreaterThan(10);
    expect(new Set(guarded)).toEqual(listed);
  });

  it('refuses every route without a session (401) and with a forged one (401)', async () => {
    for (const [method, path] of routes) {
      expect((await h.admin(method, path, null)).statusCode, `${method} ${path}`).toBe(401);
      const forged = await h.admin(method, path, null, { headers: { cookie: 'money_admin=forged-token', origin, [csrfHeader]: 'x' } });
      expect(forged.statusCode, `${method} ${path}`).toBe(401);
    }
  });

  it('refuses an expired session (401) and an admin removed from ADMIN_IDS (403)', async () => {
    const s = await h.signIn();
    expect((await h.admin('GET', '/session', s)).statusCode).toBe(200);
    h.clock.advance(h.config.ADMIN_SESSION_TTL_S * 1_000 + 1);
    for (const [method, path] of routes) expect((await h.admin(method, path, s)).statusCode, `${method} ${path}`).toBe(401);
    // The same database under a config that no longer lists the admin.
    const { harnessOn } = await import('./harness.ts');
    const fresh = await h.signIn();
    const other = await harnessOn(h.db, { ...h.config, ADMIN_IDS: '1' }, h.clock, undefined, false);
    try {
      for (const [method, path] of routes) {
        const r = await other.app.inject({ method, url: `${adminApiPrefix}${path}`, headers: { cookie: fresh.cookie, origin, [csrfHeader]: fresh.session.csrfToken } });
        expect(r.statusCode, `${method} ${path}`).toBe(403);
      }
    } finally {
      await other.close();
    }
  });

  it('refuses a non-admin at sign-in (403) and a forged or expired init data (401)', async () => {
    const post = (initData: string) => h.app.inject({ method: 'POST', url: `${adminApiPrefix}/login/init-data`, headers: { origin }, payload: { initData } });
    expect((await post(signInitData(botToken, { user: { id: 42, first_name: 'X' } }, h.clock.now()))).statusCode).toBe(403);
    expect((await post(signInitData('7000000009:AAforgedforgedforgedforged_x', { user: { id: adminId, first_name: 'X' } }, h.clock.now()))).statusCode).toBe(401);
    expect((await post(signInitData(botToken, { user: { id: adminId, first_name: 'X' } }, h.clock.now() - 3_600_000))).statusCode).toBe(401);
    const empty = await post('');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ field: 'initData' });
  });

  it('checks the Login Widget hash as Telegram documents (SHA-256 of the token as the key)', async () => {
    const post = (fields: Record<string, unknown>, o = origin) => h.app.inject({ method: 'POST', url: `${adminApiPrefix}/login/widget`, headers: { origin: o }, payload: fields });
    const authDate = Math.floor(h.clock.now() / 1000);
    const good = signLoginWidget(botToken, { id: adminId, first_name: 'Op', username: 'op', auth_date: authDate });
    const ok = await post(good);
    expect(ok.statusCode).toBe(200);
    const cookie = String(ok.headers['set-cookie']);
    expect(cookie).toMatch(/^money_admin=[\w-]{40,};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain(`Max-Age=${h.config.ADMIN_SESSION_TTL_S}`);
    expect(cookie).toContain(`Path=${adminApiPrefix}`);
    expect(cookie).not.toContain('Secure');
    expect((await post({ ...good, first_name: 'Eve' })).statusCode).toBe(401);
    expect((await post(signLoginWidget(botToken, { id: 42, first_name: 'N', auth_date: authDate }))).statusCode).toBe(403);
    expect((await post(signLoginWidget(botToken, { id: adminId, first_name: 'Op', auth_date: authDate - 3_600 }))).statusCode).toBe(401);
    // Login CSRF: a sign-in posted from another site is refused.
    expect((await post(good, 'https://evil.example')).statusCode).toBe(403);
  });

  it('marks the cookie Secure under https', async () => {
    const s = await openAdminHarness('pglite', { PUBLIC_URL: 'https://money.example' });
    try {
      const initData = signInitData(botToken, { user: { id: adminId, first_name: 'Op' } }, s.clock.now());
      const r = await s.app.inject({ method: 'POST', url: `${adminApiPrefix}/login/init-data`, headers: { origin: 'https://money.example' }, payload: { initData } });
      expect(r.statusCode).toBe(200);
      expect(String(r.headers['set-cookie'])).toContain('Secure');
    } finally {
      await s.close();
    }
  });

  it('refuses a cross-site write: foreign or missing Origin, Sec-Fetch-Site cross-site, missing or wrong CSRF token', async () => {
    const s = await h.signIn();
    for (const [method, path] of writes) {
      const headers = [
        { cookie: s.cookie, origin: 'https://evil.example', [csrfHeader]: s.session.csrfToken },
        { cookie: s.cookie, [csrfHeader]: s.session.csrfToken },
        { cookie: s.cookie, origin, 'sec-fetch-site': 'cross-site', [csrfHeader]: s.session.csrfToken },
        { cookie: s.cookie, origin },
        { cookie: s.cookie, origin, [csrfHeader]: 'wrong' },
      ];
      for (const hd of headers) {
        const r = await h.app.inject({ method, url: `${adminApiPrefix}${path}`, headers: hd, payload: {} });
        expect(r.statusCode, `${method} ${path} ${JSON.stringify(Object.keys(hd))}`).toBe(403);
      }
    }
  });

  it('signs out: the session no longer works', async () => {
    const s = await h.signIn();
    expect((await h.admin('POST', '/logout', s)).statusCode).toBe(200);
    expect((await h.admin('GET', '/session', s)).statusCode).toBe(401);
  });
});
