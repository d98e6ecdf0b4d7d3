import { describe, expect, it } from 'vitest';
import { apiPrefix } from '../../engine/wire/api-types.ts';
import { money } from '../../engine/rules/money.ts';
import { adsgramRewardUrl, sendAdsgramReward } from '../../server/dev/stand-ins/adsgram-driver.ts';
import { backends, expectMoney, moneyOf, openServicesHarness, openForSuite } from './harness.ts';

const adsTaskId = 5;
const adsReward = '25';
const callbackKey = 'adsgram-callback-key';
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe.each(backends)('ads rewards (%s)', (backend) => {
  const h = openForSuite(() => openServicesHarness(backend, { ADS_TOKEN_SECRET: 'ads-secret-for-tests', ADSGRAM_CALLBACK_KEY: callbackKey, ADS_TOKEN_TTL_S: '300' }));

  const startWatch = async (userId: number) => {
    const r = await h.call('GET', '/start-watch-ads', userId);
    expect(r.statusCode).toBe(200);
    return r.body;
  };
  const claim = (userId: number, token: string, taskId = adsTaskId) =>
    h.call('POST', '/claim-ads-reward', userId, { body: { taskId, encryptData: b64(token) } });
  const callback = (userid: string | undefined, key: string | undefined) =>
    h.call('GET', '/public/adsgram/reward', null, { query: { ...(userid !== undefined ? { userid } : {}), ...(key !== undefined ? { key } : {}) } });
  const adsProgress = async (userId: number) => {
    const r = await h.call('GET', '/tasks', userId, { query: { type: 'ADS' } });
    return r.statusCode === 200 ? (r.json<{ id: number; numberOfDone: number; hasDone: boolean }[]>().find((t) => t.id === adsTaskId) ?? null) : null;
  };

  it('credits the ADS reward once for a signed token, with a ledger row', async () => {
    const u = await h.newPlayer();
    const token = await startWatch(u);
    expect(token).toMatch(/^\d+\.[A-Za-z0-9_-]{22}\.\d+\.[A-Za-z0-9_-]+$/);
    const r = await claim(u, token);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ credited: adsReward, numberOfDone: 1, hasDone: false });
    await expectMoney(h.db, u, adsReward);
  });

  it('refuses a replayed token and credits nothing more', async () => {
    const u = await h.newPlayer();
    const token = await startWatch(u);
    expect((await claim(u, token)).statusCode).toBe(200);
    const again = await claim(u, token);
    expect(again.statusCode).toBe(409);
    expect(again.json().field).toBe('encryptData');
    expect(money((await moneyOf(h.db, u)).balance).eq(adsReward)).toBe(true);
  });

  it('refuses an expired, forged or foreign token, and a non-ADS task', async () => {
    const u = await h.newPlayer();
    const other = await h.newPlayer();
    const token = await startWatch(u);
    const [id, nonce, exp, sig] = token.split('.');
    expect((await claim(u, `${id}.${nonce}.${Number(exp) + 60_000}.${sig}`)).statusCode).toBe(400);
    expect((await claim(other, token)).statusCode).toBe(403);
    expect((await claim(u, token, 1)).json().field).toBe('taskId');
    // An unknown task names the body's field, taskId (not the query parameter of /claim-task).
    const unknown = await claim(u, token, 999_999);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().field).toBe('taskId');
    const bad = await h.call('POST', '/claim-ads-reward', u, { body: { taskId: adsTaskId, encryptData: '%%%' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('encryptData');
    const missing = await h.call('POST', '/claim-ads-reward', u, { body: { taskId: adsTaskId } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().field).toBe('encryptData');
    h.clock.advance(301_000);
    const late = await claim(u, token);
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toMatch(/expired/);
    expect(money((await moneyOf(h.db, u)).balance).isZero()).toBe(true);
  });

  it('allows 10 a day, then resets the next UTC day', async () => {
    const u = await h.newPlayer();
    for (let i = 1; i <= 10; i++) {
      const r = await claim(u, await startWatch(u));
      expect(r.json()).toMatchObject({ numberOfDone: i, hasDone: i === 10 });
    }
    expect((await h.call('GET', '/start-watch-ads', u)).statusCode).toBe(409);
    expect(money((await moneyOf(h.db, u)).balance).eq(money(adsReward).times(10))).toBe(true);
    expect(await adsProgress(u)).toMatchObject({ numberOfDone: 10, hasDone: true });
    h.clock.advance(24 * 60 * 60 * 1000);
    const next = await claim(u, await startWatch(u));
    expect(next.json()).toMatchObject({ numberOfDone: 1, hasDone: false });
  });

  it('checks the Adsgram callback key in constant time and needs userid', async () => {
    const u = await h.newPlayer();
    await startWatch(u);
    expect((await callback(String(u), 'wrong')).statusCode).toBe(403);
    expect((await callback(String(u), undefined)).statusCode).toBe(403);
    const noUser = await callback(undefined, callbackKey);
    expect(noUser.statusCode).toBe(400);
    expect(noUser.json().field).toBe('userid');
    expect(money((await moneyOf(h.db, u)).balance).isZero()).toBe(true);
  });

  it('credits a duplicate callback once', async () => {
    const u = await h.newPlayer();
    await startWatch(u);
    const first = await callback(String(u), callbackKey);
    expect(first.statusCode).toBe(200);
    expect(first.json().credited).toBe(adsReward);
    const dup = await callback(String(u), callbackKey);
    expect(dup.statusCode).toBe(200);
    expect(dup.json().credited).toBe('0');
    await expectMoney(h.db, u, adsReward);
  });

  it('credits one watch once when both the callback and the client claim arrive', async () => {
    const u = await h.newPlayer();
    const token = await startWatch(u);
    expect((await callback(String(u), callbackKey)).json().credited).toBe(adsReward);
    const r = await claim(u, token);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ credited: '0', numberOfDone: 1 });
    expect((await claim(u, token)).statusCode).toBe(409);
    expect(money((await moneyOf(h.db, u)).balance).eq(adsReward)).toBe(true);
  });

  it('takes Adsgram’s callback over real HTTP, crediting a repeated one once', async () => {
    const address = await h.app.listen({ port: 0, host: '127.0.0.1' });
    const rewardUrl = adsgramRewardUrl(`${address}${apiPrefix}`, callbackKey);
    const u = await h.newPlayer();
    await startWatch(u);
    const first = await sendAdsgramReward(rewardUrl, u);
    expect(first).toEqual({ status: 200, body: { credited: adsReward } });
    expect((await sendAdsgramReward(rewardUrl, u)).body).toMatchObject({ credited: '0' });
    expect((await sendAdsgramReward(adsgramRewardUrl(`${address}${apiPrefix}`, 'guess'), u)).status).toBe(403);
    expect(money((await moneyOf(h.db, u)).balance).eq(adsReward)).toBe(true);
  });

  it('credits one watch once when two client claims and the callback arrive at the same moment', async () => {
    const u = await h.newPlayer();
    const token = await startWatch(u);
    const answers = await Promise.all([claim(u, token), claim(u, token), callback(String(u), callbackKey), callback(String(u), callbackKey)]);
    const credited = answers.filter((r) => r.statusCode === 200).map((r) => money(r.json<{ credited: string }>().credited));
    expect(credited.reduce((a, b) => a.plus(b), money(0)).eq(adsReward)).toBe(true);
    expect(answers.filter((r) => r.statusCode === 409)).toHaveLength(1);
    await expectMoney(h.db, u, adsReward);
    expect(await adsProgress(u)).toMatchObject({ numberOfDone: 1 });
  });

  it('credits nothing for a callback without a started watch', async () => {
    const u = await h.newPlayer();
    expect((await callback(String(u), callbackKey)).json().credited).toBe('0');
    expect(money((await moneyOf(h.db, u)).balance).isZero()).toBe(true);
  });
});
