import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { money } from '../../engine/rules/money.ts';
import { startFakeExchanges, type FakeExchanges } from '../../server/dev/stand-ins/fake-exchanges.ts';
import { startFakeTelegram, type FakeTelegram } from '../../server/dev/stand-ins/fake-telegram.ts';
import { startFakeTurnstile, type FakeTurnstile } from '../../server/dev/stand-ins/fake-turnstile.ts';
import { backends, botToken, expectMoney, moneyOf, openServicesHarness, type ServicesHarness } from './harness.ts';
import { partnerSettings } from './service-env.ts';

/** /check-task and /claim-task (§7's routes) through the real services and real HTTP to fakes. */
const onusTask = 21;
const bingxTask = 22;
const boostTask = 7;

describe.each(backends)('tasks checked by outside services (%s)', (backend) => {
  let ts: FakeTurnstile;
  let ex: FakeExchanges;
  let tg: FakeTelegram;
  let h: ServicesHarness;
  beforeAll(async () => {
    [ts, ex, tg] = await Promise.all([startFakeTurnstile(), startFakeExchanges(), startFakeTelegram(botToken)]);
    h = await openServicesHarness(backend, { TURNSTILE_SECRET: ts.secret, TURNSTILE_VERIFY_URL: ts.verifyUrl, ...partnerSettings(ex, tg) });
  });
  afterAll(async () => {
    await h?.close();
    await Promise.all([ts?.close(), ex?.close(), tg?.close()]);
  });

  const captcha = () => {
    return ts.solve({ sitekey: ts.siteKey, hostname: 'money.example', action: 'claim-task' });
  };
  const check = (u: number, body: object) => h.call('POST', '/check-task', u, { body });
  const claim = (u: number, taskId: number, body: object = {}) => h.call('POST', '/claim-task', u, { query: { task_id: String(taskId) }, body: { taskId, ...body } });

  it('checks an exchange UID: registered passes, anything else is "not registered via link"', async () => {
    const u = await h.newPlayer();
    ex.register('onus', '31337');
    expect((await check(u, { taskId: onusTask, inputValue: '31337' })).statusCode).toBe(200);
    const no = await check(u, { taskId: onusTask, inputValue: '424242' });
    expect(no.statusCode).toBe(400);
    expect(no.json()).toMatchObject({ message: 'Your account is not registered via link', field: 'inputValue' });
    expect(ex.requests.at(-1)!.query.get('uid')).toBe('424242');
  });

  it('claims an exchange task only with a fresh captcha and a registered UID', async () => {
    const u = await h.newPlayer();
    ex.register('bingx', '700001');
    expect((await claim(u, bingxTask, { inputValue: '700001' })).json().message).toBe('Please verify captcha first');
    expect((await claim(u, bingxTask, { inputValue: '999', captchaToken: captcha() })).json().message).toBe('Your account is not registered via link');
    const token = captcha();
    const ok = await claim(u, bingxTask, { inputValue: '700001', captchaToken: token });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().reward).toBe('1000');
    await expectMoney(h.db, u, 1000);
    // The same captcha token again is refused even for another player's fresh claim.
    const other = await h.newPlayer();
    ex.register('bingx', '700002');
    const replay = await claim(other, bingxTask, { inputValue: '700002', captchaToken: token });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().field).toBe('captchaToken');
  });

  it('refuses with 503 and credits nothing when the exchange is down', async () => {
    const u = await h.newPlayer();
    ex.register('onus', '800001');
    ex.settings.status = 503;
    try {
      const r = await claim(u, onusTask, { inputValue: '800001', captchaToken: captcha() });
      expect(r.statusCode).toBe(503);
      expect(r.json().message).toMatch(/onus check is unavailable/);
      expect(r.body).not.toContain('127.0.0.1');
    } finally {
      ex.settings.status = 200;
    }
    expect(money((await moneyOf(h.db, u)).balance).isZero()).toBe(true);
    expect((await claim(u, onusTask, { inputValue: '800001', captchaToken: captcha() })).statusCode).toBe(200);
  });

  it('counts channel boosts and allows a claim per boost beyond numberOfDone, up to 10', async () => {
    const u = await h.newPlayer();
    tg.settings.boosts.set(u, 2);
    const c = await check(u, { taskId: boostTask });
    expect(c.statusCode).toBe(200);
    expect(c.json()).toEqual({ boostChannelCnt: 2 });
    expect((await claim(u, boostTask)).json().task).toMatchObject({ numberOfDone: 1, hasDone: false });
    expect((await claim(u, boostTask)).json().task).toMatchObject({ numberOfDone: 2 });
    const third = await claim(u, boostTask);
    expect(third.statusCode).toBe(400);
    expect(third.json().message).toBe('You have not enouch boost');
    tg.settings.boosts.set(u, 12);
    for (let n = 3; n <= 10; n++) expect((await claim(u, boostTask)).json().task).toMatchObject({ numberOfDone: n, hasDone: n === 10 });
    expect((await claim(u, boostTask)).statusCode).toBe(409);
    expect(money((await moneyOf(h.db, u)).balance).eq(200 * 10)).toBe(true);
  });

  it('refuses the boost check with 503 when the Bot API is slow', async () => {
    const u = await h.newPlayer();
    tg.settings.delayMs = 3_000;
    try {
      const r = await check(u, { taskId: boostTask });
      expect(r.statusCode).toBe(503);
      expect(r.json().message).toMatch(/telegram check is unavailable/);
    } finally {
      tg.settings.delayMs = 0;
    }
  });
});
