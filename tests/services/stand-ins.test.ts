import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendAdsgramReward } from '../../server/dev/stand-ins/adsgram-driver.ts';
import { startFakeExchanges, type FakeExchanges } from '../../server/dev/stand-ins/fake-exchanges.ts';
import { startFakeTelegram, type FakeTelegram } from '../../server/dev/stand-ins/fake-telegram.ts';
import { startFakeTurnstile, type FakeTurnstile } from '../../server/dev/stand-ins/fake-turnstile.ts';
import { startFakeX, type FakeX } from '../../server/dev/stand-ins/fake-x.ts';

/** Each stand-in refuses what the real service refuses: one that accepts anything hides bugs. */

const form = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields).toString() });

describe('the Turnstile stand-in', () => {
  let ts: FakeTurnstile;
  beforeAll(async () => void (ts = await startFakeTurnstile('the-secret', 'the-site-key')));
  afterAll(() => ts.close());
  const verify = async (response: string, secret = 'the-secret') => (await form(ts.verifyUrl, { secret, response })).json() as Promise<Record<string, unknown>>;

  it('reports the action and hostname the widget was drawn with, once per token', async () => {
    const token = ts.solve({ sitekey: 'the-site-key', action: 'claim-task', hostname: 'money.example' });
    expect(await verify(token)).toMatchObject({ success: true, action: 'claim-task', hostname: 'money.example' });
    expect(await verify(token)).toMatchObject({ success: false, 'error-codes': ['timeout-or-duplicate'] });
  });

  it('reports an empty action for a widget drawn without one', async () => {
    expect(await verify(ts.solve({ sitekey: 'the-site-key', hostname: 'money.example' }))).toMatchObject({ success: true, action: '' });
  });

  it('refuses a wrong secret, an unknown token, a token older than 300 s, and a widget with another site key', async () => {
    const token = ts.solve({ sitekey: 'the-site-key', action: 'claim-task', hostname: 'money.example' });
    expect(await verify(token, 'wrong')).toMatchObject({ success: false, 'error-codes': ['invalid-input-secret'] });
    expect(await verify('made-up')).toMatchObject({ success: false, 'error-codes': ['invalid-input-response'] });
    ts.advance(300_001);
    expect(await verify(token)).toMatchObject({ success: false, 'error-codes': ['timeout-or-duplicate'] });
    expect(() => ts.solve({ sitekey: 'another-key', action: 'claim-task', hostname: 'money.example' })).toThrow(/site key/);
    const demo = await fetch(`${ts.url}/demo/solve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sitekey: 'another-key' }) });
    expect(demo.status).toBe(400);
  });
});

describe('the X OAuth 2 stand-in', () => {
  const callback = 'https://money.example/callback/twitter';
  let x: FakeX;
  beforeAll(async () => void (x = await startFakeX([callback])));
  afterAll(() => x.close());
  const basic = () => ({ authorization: `Basic ${Buffer.from(`${x.clientId}:${x.clientSecret}`).toString('base64')}` });
  const authorize = async (verifier: string, redirectUri = callback) => {
    const url = new URL(x.authorizeUrl);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    for (const [k, v] of Object.entries({ response_type: 'code', client_id: x.clientId, redirect_uri: redirectUri, state: 's', code_challenge: challenge, code_challenge_method: 'S256' })) url.searchParams.set(k, v);
    const res = await fetch(url, { redirect: 'manual' });
    return res.status === 302 ? new URL(res.headers.get('location')!).searchParams.get('code')! : null;
  };
  const redeem = (code: string, verifier: string, headers = basic(), redirectUri = callback) =>
    form(x.tokenUrl, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier }, headers);

  it('redeems a code once, with the right verifier', async () => {
    const code = (await authorize('v'.repeat(43)))!;
    expect((await redeem(code, 'v'.repeat(43))).status).toBe(200);
    expect((await redeem(code, 'v'.repeat(43))).status).toBe(400);
  });

  it('refuses a wrong PKCE verifier, wrong client credentials, another redirect_uri and an unregistered callback', async () => {
    expect((await redeem((await authorize('a'.repeat(43)))!, 'b'.repeat(43))).status).toBe(400);
    expect((await redeem((await authorize('a'.repeat(43)))!, 'a'.repeat(43), { authorization: 'Basic bm86bm8=' })).status).toBe(401);
    expect((await redeem((await authorize('a'.repeat(43)))!, 'a'.repeat(43), basic(), 'https://money.example/other')).status).toBe(400);
    expect(await authorize('a'.repeat(43), 'https://evil.example/cb')).toBeNull();
  });
});

describe('the exchange stand-in', () => {
  let ex: FakeExchanges;
  beforeAll(async () => void (ex = await startFakeExchanges('k')));
  afterAll(() => ex.close());

  it('says registered only for ids signed up with it, and only to our key', async () => {
    ex.register('onus', '42');
    const ask = async (uid: string, key = 'k') => fetch(`${ex.checkUrl('onus')}?uid=${uid}`, { headers: { 'x-api-key': key } });
    expect(await (await ask('42')).json()).toEqual({ registered: true });
    expect(await (await ask('43')).json()).toEqual({ registered: false });
    expect(await (await fetch(`${ex.checkUrl('bingx')}?uid=42`, { headers: { 'x-api-key': 'k' } })).json()).toEqual({ registered: false });
    expect((await ask('42', 'wrong')).status).toBe(401);
  });
});

describe('the Telegram Bot API stand-in', () => {
  let tg: FakeTelegram;
  beforeAll(async () => void (tg = await startFakeTelegram('123:stand-in-token-abcdefghijkl')));
  afterAll(() => tg.close());
  const call = async (method: string, params: object, token = tg.token) => {
    const res = await fetch(`${tg.apiRoot}/bot${token}/${method}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("answers with Telegram's error shapes", async () => {
    tg.settings.unknownChats.add(404);
    tg.settings.blocked.add(403);
    expect(await call('sendMessage', { chat_id: 404, text: 'hi' })).toEqual({ status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: chat not found' } });
    expect(await call('sendMessage', { chat_id: 403, text: 'hi' })).toEqual({ status: 403, body: { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' } });
    tg.settings.rateLimit = { everyN: 1, retryAfterS: 7 };
    expect((await call('sendMessage', { chat_id: 1, text: 'hi' })).body).toEqual({ ok: false, error_code: 429, description: 'Too Many Requests: retry after 7', parameters: { retry_after: 7 } });
    tg.settings.rateLimit = null;
    expect((await call('getMe', {}, '999:other-token-abcdefghijklmn')).status).toBe(401);
  });

  it('answers getChatMember and getUserChatBoosts from the state set, for its channel only', async () => {
    tg.settings.members.set(77, 'member');
    tg.settings.boosts.set(77, 2);
    expect((await call('getChatMember', { chat_id: '@money_channel', user_id: 77 })).body).toMatchObject({ ok: true, result: { status: 'member', user: { id: 77 } } });
    expect((await call('getChatMember', { chat_id: '@money_channel', user_id: 78 })).body).toMatchObject({ ok: true, result: { status: 'left' } });
    expect((await call('getChatMember', { chat_id: '@other', user_id: 77 })).body).toMatchObject({ ok: false, description: 'Bad Request: chat not found' });
    expect(((await call('getUserChatBoosts', { chat_id: '@money_channel', user_id: 77 })).body.result as { boosts: unknown[] }).boosts).toHaveLength(2);
  });
});

describe('the Adsgram reward callback', () => {
  it('is one GET of the reward URL with [userId] filled in', async () => {
    const seen: { method: string; url: string }[] = [];
    const server = createServer((req, res) => {
      seen.push({ method: req.method!, url: req.url! });
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      await sendAdsgramReward(`http://127.0.0.1:${port}/reward?userid=[userId]&key=abc`, 5001);
      expect(seen).toEqual([{ method: 'GET', url: '/reward?userid=5001&key=abc' }]);
    } finally {
      server.close();
    }
  });
});
