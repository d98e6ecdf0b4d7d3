import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task, UserStatus } from '../../engine/wire/api-types.ts';
import { economy } from '../../engine/rules/economy.ts';
import type { OutsideServices } from '../../server/tasks/task-evidence.ts';
import { ledgerMatchesBalances } from './db-helpers.ts';
import { backends, harnessOn, openHarness, type Harness } from './harness.ts';

/** The outside services as the issue-5 clients answer them, driven by the test. */
const fakeServices = () => {
  const state = { captcha: true, exchangeIds: new Set(['GOOD1', 'GOOD2']), boosts: 0, captchaCalls: 0 };
  const services: OutsideServices = {
    verifyCaptcha: async (token) => {
      state.captchaCalls++;
      return state.captcha && token === 'ok-token';
    },
    checkExchange: async (_type, uid) => state.exchangeIds.has(uid),
    countChannelBoosts: async () => state.boosts,
  };
  return { state, services };
};

const ids = { link: 1, username: 4, ads: 5, daily: 6, boost: 7, ref1: 11, onus: 21, ach100: 31, ach1000: 32 };

describe.each(backends)('tasks (%s)', (backend) => {
  let h: Harness;
  let bare: Harness;
  const fake = fakeServices();
  beforeAll(async () => {
    h = await openHarness(backend, fake.services);
    bare = await harnessOn(h.db, h.config, h.clock, undefined, false);
  });
  afterAll(async () => {
    await bare?.close();
    await h?.close();
  });

  const status = async (id: number) => (await h.call('GET', '', id)).json<UserStatus>();
  const claim = (user: number | object, taskId: number, body: object = {}, harness = h) =>
    harness.call('POST', '/claim-task', user as number, { query: { task_id: String(taskId) }, body: { taskId, ...body } });
  const tasks = async (id: number, type: string) => (await h.call('GET', '/tasks', id, { query: { type } })).json<Task[]>();

  it('lists tasks by type, with the social tab including the "Daily Oppotunity" ads task', async () => {
    const id = h.newUserId();
    const social = await tasks(id, 'DAILY_TASK');
    expect(social.map((t) => t.title)).toContain('Daily Oppotunity');
    expect(social.find((t) => t.type === 'ADS')!.link).toBe('10');
    expect((await tasks(id, 'EXCHANGE')).map((t) => t.handleType).sort()).toEqual(['CHECK_BINGX', 'CHECK_ONUS']);
    expect((await tasks(id, 'INVITE')).every((t) => t.handleType === 'REF')).toBe(true);
    expect((await tasks(id, 'ACHIVEMENT')).length).toBeGreaterThan(2);
    expect((await h.call('GET', '/tasks', id)).json()).toMatchObject({ field: 'type' });
    expect((await h.call('GET', '/tasks', id, { query: { type: 'NOPE' } })).statusCode).toBe(400);
  });

  it('credits an external-link task once, with "Claimed task successful"', async () => {
    const id = h.newUserId();
    await status(id);
    const r = await claim(id, ids.link);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ message: 'Claimed task successful', reward: '100', task: { hasDone: true, numberOfDone: 1 } });
    expect((await claim(id, ids.link)).statusCode).toBe(409);
    expect((await status(id)).totalMoney).toBe('100');
    expect((await tasks(id, 'SOCIAL')).find((t) => t.id === ids.link)!.hasDone).toBe(true);
  });

  it('resets daily tasks at the next UTC day', async () => {
    const id = h.newUserId();
    await status(id);
    expect((await claim(id, ids.daily)).statusCode).toBe(200);
    expect((await claim(id, ids.daily)).statusCode).toBe(409);
    h.clock.advance(24 * 3_600_000);
    expect((await tasks(id, 'SOCIAL')).find((t) => t.id === ids.daily)!.hasDone).toBe(false);
    expect((await claim(id, ids.daily)).statusCode).toBe(200);
    expect((await status(id)).totalMoney).toBe('20');
  });

  it('CHECK_USERNAME needs "$MONEY" in the Telegram name', async () => {
    const id = h.newUserId();
    const plain = await claim({ id, first_name: 'Bob' }, ids.username);
    expect(plain.statusCode).toBe(400);
    expect(plain.json().message).toBe('$MONEY NOT FOUND IN USER NAME');
    const ok = await claim({ id, first_name: 'Bob', last_name: '$MONEY' }, ids.username);
    expect(ok.statusCode).toBe(200);
  });

  it('REF tasks need inviteCnt ≥ the numeric link', async () => {
    const id = h.newUserId();
    await status(id);
    expect((await claim(id, ids.ref1)).statusCode).toBe(400);
    await h.db.query('UPDATE users SET invite_cnt = 1 WHERE id = $1', [id]);
    expect((await claim(id, ids.ref1)).statusCode).toBe(200);
  });

  it('achievements unlock by totalClick and are claimed once with "Claimed reward successful"', async () => {
    const id = h.newUserId();
    await status(id);
    expect((await claim(id, ids.ach100)).statusCode).toBe(400);
    await h.db.query('UPDATE users SET total_click = 150 WHERE id = $1', [id]);
    const r = await claim(id, ids.ach100);
    expect(r.json().message).toBe('Claimed reward successful');
    expect((await claim(id, ids.ach1000)).statusCode).toBe(400);
    expect((await claim(id, ids.ach100)).statusCode).toBe(409);
  });

  it('the ads task is not claimable here (the ads flow credits it)', async () => {
    const id = h.newUserId();
    await status(id);
    expect((await claim(id, ids.ads)).statusCode).toBe(400);
  });

  it('boost task: check returns the count; each claim needs boosts above numberOfDone, done at 10', async () => {
    const id = h.newUserId();
    await status(id);
    fake.state.boosts = 2;
    const check = await h.call('POST', '/check-task', id, { body: { taskId: ids.boost } });
    expect(check.json()).toEqual({ boostChannelCnt: 2 });
    expect((await claim(id, ids.boost)).json().task.numberOfDone).toBe(1);
    expect((await claim(id, ids.boost)).json().task.numberOfDone).toBe(2);
    const third = await claim(id, ids.boost);
    expect(third.json().message).toBe('You have not enouch boost');
    fake.state.boosts = 50;
    for (let i = 3; i <= economy.boostTaskTarget; i++) expect((await claim(id, ids.boost)).statusCode).toBe(200);
    expect((await claim(id, ids.boost)).statusCode).toBe(409);
    const t = (await tasks(id, 'SOCIAL')).find((x) => x.id === ids.boost)!;
    expect(t).toMatchObject({ hasDone: true, numberOfDone: economy.boostTaskTarget });
    expect(await ledgerMatchesBalances(h.db, [id])).toBe(true);
  });

  it('exchange tasks need a captcha and a registered account id, used by one player only', async () => {
    const id = h.newUserId();
    await status(id);
    expect((await claim(id, ids.onus, { inputValue: 'GOOD1' })).json()).toMatchObject({ message: 'Please verify captcha first', field: 'captchaToken' });
    expect((await claim(id, ids.onus, { captchaToken: 'ok-token' })).json().message).toBe('Please fill input');
    expect((await claim(id, ids.onus, { captchaToken: 'ok-token', inputValue: 'BAD' })).json().message).toBe('Your account is not registered via link');
    expect((await claim(id, ids.onus, { captchaToken: 'bad', inputValue: 'GOOD1' })).statusCode).toBe(400);
    expect((await h.call('POST', '/check-task', id, { body: { taskId: ids.onus, inputValue: 'GOOD1' } })).statusCode).toBe(200);
    expect((await claim(id, ids.onus, { captchaToken: 'ok-token', inputValue: 'GOOD1' })).statusCode).toBe(200);
    const other = h.newUserId();
    await status(other);
    expect((await claim(other, ids.onus, { captchaToken: 'ok-token', inputValue: 'GOOD1' })).statusCode).toBe(409);
    expect((await status(other)).totalMoney).toBe('0');
  });

  it('fails closed without outside services: refused, nothing credited', async () => {
    const id = h.newUserId();
    await bare.call('GET', '', id);
    const r = await claim(id, ids.onus, { captchaToken: 'ok-token', inputValue: 'GOOD1' }, bare);
    expect(r.statusCode).toBe(503);
    expect((await bare.call('POST', '/check-task', id, { body: { taskId: ids.boost } })).statusCode).toBe(503);
    expect((await claim(id, ids.boost, {}, bare)).statusCode).toBe(503);
    expect((await bare.call('GET', '', id)).json<UserStatus>().totalMoney).toBe('0');
  });

  it('validates task calls: missing task_id, body, unknown task, mismatched ids', async () => {
    const id = h.newUserId();
    await status(id);
    expect((await h.call('POST', '/claim-task', id, { body: {} })).json().field).toBe('task_id');
    expect((await h.call('POST', '/claim-task', id, { query: { task_id: '1' } })).statusCode).toBe(400);
    expect((await claim(id, 999)).statusCode).toBe(404);
    expect((await h.call('POST', '/claim-task', id, { query: { task_id: '1' }, body: { taskId: 2 } })).json().field).toBe('taskId');
    expect((await h.call('POST', '/check-task', id, { body: {} })).json().field).toBe('taskId');
    expect((await h.call('POST', '/check-task', id)).statusCode).toBe(400);
    expect((await status(id)).totalMoney).toBe('0');
  });
});
