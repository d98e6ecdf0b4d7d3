import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { economy } from '../../engine/rules/economy.ts';
import { money } from '../../engine/rules/money.ts';
import type { SocialConnect, UserStatus } from '../../engine/wire/api-types.ts';
import { startFakeX, xSettings, type FakeX } from '../../server/dev/stand-ins/fake-x.ts';
import { backends, openServicesHarness, type ServicesHarness } from './harness.ts';

const allowed = 'https://money.example/app/earn';

describe.each(backends)('X account link (%s)', (backend) => {
  let x: FakeX;
  let h: ServicesHarness;
  beforeAll(async () => {
    x = await startFakeX(['https://money.example/money/api/v1/airdrop/callback/twitter']);
    h = await openServicesHarness(backend, {
      ...xSettings(x),
      X_REDIRECT_ALLOWLIST: 'https://money.example/app, https://t.me/money_test_bot',
      OUTSIDE_TIMEOUT_MS: '1500',
    });
  });
  afterAll(async () => {
    await h?.close();
    await x?.close();
  });

  const login = async (userId: number, redirectTo = allowed) => {
    const r = await h.call('GET', '/social-login', userId, { query: { redirect_to: redirectTo } });
    expect(r.statusCode).toBe(200);
    return r.json<{ authUrl: string }>().authUrl;
  };
  /** The player's browser at X: consent, then X's redirect to our callback (as a path to inject). */
  const consent = async (authUrl: string) => {
    const res = await fetch(authUrl, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location')!);
    expect(to.origin + to.pathname).toBe('https://money.example/money/api/v1/airdrop/callback/twitter');
    return `${to.pathname}${to.search}`;
  };
  const callback = (path: string) => h.app.inject({ method: 'GET', url: path });
  const connect = async (userId: number) => (await h.call('GET', '/check-x-connect', userId)).json<SocialConnect>();
  const expectedAge = () => Math.floor((h.clock.now() - Date.parse(x.settings.nextUser.created_at)) / 86_400_000);

  it('asks for S256 PKCE with a 256-bit state', async () => {
    const u = await h.newPlayer();
    const url = new URL(await login(u));
    expect(url.origin + url.pathname).toBe(x.authorizeUrl);
    const q = url.searchParams;
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('client_id')).toBe(x.clientId);
    expect(q.get('redirect_uri')).toBe('https://money.example/money/api/v1/airdrop/callback/twitter');
    // A fresh state each time.
    expect(new URL(await login(u)).searchParams.get('state')).not.toBe(q.get('state'));
  });

  it('links the account: twUsername, twAvatar, twAge and the pending reward, then redirects back', async () => {
    x.settings.nextUser = { id: 'x-1', username: 'moneymaker', profile_image_url: 'https://pbs.example/1.jpg', created_at: '2015-03-01T00:00:00.000Z' };
    const u = await h.newPlayer();
    const before = (await h.call('GET', '/', u)).json<UserStatus>();
    expect(await connect(u)).toMatchObject({ twUsername: null, twAge: 0 });
    const r = await callback(await consent(await login(u)));
    expect(r.statusCode).toBe(302);
    const back = new URL(r.headers.location as string);
    expect(back.origin + back.pathname).toBe(allowed);
    expect(back.searchParams.get('x_connect')).toBe('ok');
    const c = await connect(u);
    expect(c).toMatchObject({ twUsername: 'moneymaker', twAvatar: 'https://pbs.example/1.jpg', twAge: expectedAge() });
    expect(c.twAge).toBeGreaterThan(3_000);
    const gained = money(c.pendingClaimReward).minus(before.pendingClaimReward);
    expect(gained.eq(c.twAge * economy.welcomeMoneyPerTwitterDay)).toBe(true);
  });

  const ledgerOf = async (u: number) =>
    (await h.db.query<{ kind: string; reference: string; amount: string }>("SELECT kind, reference, amount::text FROM ledger WHERE user_id = $1 AND currency = 'MONEY' ORDER BY id", [u])).rows;
  const me = async (u: number) => (await h.call('GET', '/', u)).json<UserStatus>();

  it('pays the X part of the welcome reward once when X is connected after the claim, with 5 % to the referrer', async () => {
    x.settings.nextUser = { id: 'x-after', username: 'late_x', profile_image_url: 'https://pbs.example/a.jpg', created_at: '2016-01-01T00:00:00.000Z' };
    const referrer = await h.newPlayer();
    const u = await h.newPlayer();
    expect((await h.call('POST', '/referral', u, { query: { refcode: (await me(referrer)).refcode } })).statusCode).toBe(200);
    const claimed = (await h.call('POST', '/claim-welcome-rw', u)).json<UserStatus>();
    expect(claimed.twAge).toBe(0);
    await callback(await consent(await login(u)));
    const after = await me(u);
    const xPart = after.twAge * economy.welcomeMoneyPerTwitterDay;
    expect(after.twAge).toBe(expectedAge());
    expect(money(after.totalMoney).minus(claimed.totalMoney).eq(xPart)).toBe(true);
    expect(after.pendingClaimReward).toBe('0');
    expect((await ledgerOf(u)).filter((l) => l.reference === 'welcome:x')).toEqual([{ kind: 'welcome', reference: 'welcome:x', amount: String(xPart) }]);
    expect(money((await me(referrer)).totalMoneyRef).eq(money(claimed.totalMoney).plus(xPart).times(0.05))).toBe(true);
    // Connecting again (another login) pays nothing more.
    await callback(await consent(await login(u)));
    expect((await me(u)).totalMoney).toBe(after.totalMoney);
    const ledger = await ledgerOf(u);
    expect(ledger.reduce((sum, l) => sum.plus(l.amount), money(0)).eq(after.totalMoney)).toBe(true);
  });

  it('pays the X part with the welcome claim when X was connected first, and not again', async () => {
    x.settings.nextUser = { id: 'x-before', username: 'early_x', profile_image_url: 'https://pbs.example/b.jpg', created_at: '2016-01-01T00:00:00.000Z' };
    const u = await h.newPlayer();
    await callback(await consent(await login(u)));
    const before = await me(u);
    expect(money(before.pendingClaimReward).eq(before.ageReward.total)).toBe(true);
    const claimed = (await h.call('POST', '/claim-welcome-rw', u)).json<UserStatus>();
    expect(claimed.totalMoney).toBe(before.ageReward.total);
    await callback(await consent(await login(u)));
    expect((await me(u)).totalMoney).toBe(before.ageReward.total);
  });

  it('refuses a replayed state', async () => {
    x.settings.nextUser = { ...x.settings.nextUser, id: 'x-2', username: 'replayer' };
    const u = await h.newPlayer();
    const path = await consent(await login(u));
    expect((await callback(path)).statusCode).toBe(302);
    const again = await callback(path);
    expect(again.statusCode).toBe(400);
    expect(again.json().field).toBe('state');
  });

  it('refuses a state older than 10 minutes, and an unknown one', async () => {
    x.settings.nextUser = { ...x.settings.nextUser, id: 'x-3', username: 'late' };
    const u = await h.newPlayer();
    const path = await consent(await login(u));
    h.clock.advance(10 * 60 * 1000 + 1);
    expect((await callback(path)).statusCode).toBe(400);
    expect((await callback('/money/api/v1/airdrop/callback/twitter?state=made-up&code=abc')).statusCode).toBe(400);
    expect((await connect(u)).twUsername).toBeNull();
  });

  /** Two new players, the first one linked to the X account `username`. */
  const twoPlayersFirstLinked = async (id: string, username: string) => {
    x.settings.nextUser = { ...x.settings.nextUser, id, username };
    const a = await h.newPlayer();
    const b = await h.newPlayer();
    await callback(await consent(await login(a)));
    return { a, b };
  };

  it('binds the state to the player who asked for it', async () => {
    const { a, b } = await twoPlayersFirstLinked('x-4', 'owner');
    expect((await connect(a)).twUsername).toBe('owner');
    expect((await connect(b)).twUsername).toBeNull();
  });

  it('refuses an X account already linked to another player', async () => {
    const { b } = await twoPlayersFirstLinked('x-5', 'shared');
    const r = await callback(await consent(await login(b)));
    expect(new URL(r.headers.location as string).searchParams.get('x_error')).toBe('already_linked');
    expect((await connect(b)).twUsername).toBeNull();
  });

  it('only redirects to the allowlist', async () => {
    const u = await h.newPlayer();
    for (const bad of ['https://evil.example/app', 'https://money.example.evil.com/app', 'https://money.example/admin', 'javascript:alert(1)', 'not a url']) {
      const r = await h.call('GET', '/social-login', u, { query: { redirect_to: bad } });
      expect(r.statusCode).toBe(400);
      expect(r.json().field).toBe('redirect_to');
    }
    const missing = await h.call('GET', '/social-login', u);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().field).toBe('redirect_to');
    expect((await h.call('GET', '/social-login', u, { query: { redirect_to: 'https://t.me/money_test_bot/app' } })).statusCode).toBe(200);
  });

  it('drops the fragment of redirect_to (Telegram puts the signed init data there)', async () => {
    x.settings.nextUser = { ...x.settings.nextUser, id: 'x-7', username: 'hashed' };
    const u = await h.newPlayer();
    const r = await callback(await consent(await login(u, `${allowed}#tgWebAppData=user%3D...%26hash%3Dabc`)));
    const back = new URL(r.headers.location as string);
    expect(back.hash).toBe('');
    expect(back.searchParams.get('x_connect')).toBe('ok');
    const stored = await h.db.query<{ redirect_to: string }>('SELECT redirect_to FROM x_oauth_states');
    expect(stored.rows.some((row) => row.redirect_to.includes('tgWebAppData'))).toBe(false);
  });

  it('reports a refusal at X back to redirect_to, linking nothing', async () => {
    const u = await h.newPlayer();
    const state = new URL(await login(u)).searchParams.get('state')!;
    const r = await callback(`/money/api/v1/airdrop/callback/twitter?state=${state}&error=access_denied`);
    expect(r.statusCode).toBe(302);
    expect(new URL(r.headers.location as string).searchParams.get('x_error')).toBe('access_denied');
    expect((await connect(u)).twUsername).toBeNull();
  });

  it('treats a slow token endpoint as unavailable, and the state stays spent', async () => {
    x.settings.nextUser = { ...x.settings.nextUser, id: 'x-6', username: 'slow' };
    const u = await h.newPlayer();
    const path = await consent(await login(u));
    x.settings.tokenDelayMs = 3_000;
    try {
      const r = await callback(path);
      expect(new URL(r.headers.location as string).searchParams.get('x_error')).toBe('x_unavailable');
    } finally {
      x.settings.tokenDelayMs = 0;
    }
    expect((await connect(u)).twUsername).toBeNull();
    expect((await callback(path)).statusCode).toBe(400);
  });

  it('refuses a forged code at the token endpoint', async () => {
    const u = await h.newPlayer();
    const state = new URL(await login(u)).searchParams.get('state')!;
    const r = await callback(`/money/api/v1/airdrop/callback/twitter?state=${state}&code=forged`);
    expect(new URL(r.headers.location as string).searchParams.get('x_error')).toBe('x_refused');
  });
});
