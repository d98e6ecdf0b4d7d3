import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/background/settings.ts';
import { OutsideServiceError } from '../../server/core/outside-http.ts';
import { createOutsideServices } from '../../server/tasks/outside-services.ts';
import type { OutsideServices } from '../../server/tasks/task-evidence.ts';
import { startFakeExchanges, type FakeExchanges } from '../../server/dev/stand-ins/fake-exchanges.ts';
import { startFakeTelegram, type FakeTelegram } from '../../server/dev/stand-ins/fake-telegram.ts';
import { botToken, manualClockFor, partnerSettings, testEnv } from './service-env.ts';

describe('partner exchange checks and channel boosts', () => {
  let ex: FakeExchanges;
  let tg: FakeTelegram;
  let services: OutsideServices;
  const make = (env: Record<string, string>) =>
    // These calls do not touch the database; the db is never used by checkExchange/countChannelBoosts.
    createOutsideServices({ db: undefined as never, config: loadConfig(testEnv('pglite', env)), clock: manualClockFor(), log: () => {} });
  beforeAll(async () => {
    ex = await startFakeExchanges();
    tg = await startFakeTelegram(botToken);
    services = make(partnerSettings(ex, tg));
  });
  afterAll(async () => {
    await ex?.close();
    await tg?.close();
  });

  it('asks the right exchange with the UID and the API key', async () => {
    ex.register('onus', '100200');
    ex.register('bingx', '900800');
    expect(await services.checkExchange('CHECK_ONUS', '100200')).toBe(true);
    expect(await services.checkExchange('CHECK_BINGX', '100200')).toBe(false);
    expect(await services.checkExchange('CHECK_BINGX', '900800')).toBe(true);
    const last = ex.requests.at(-1)!;
    expect(last.path).toBe('/bingx/check');
    expect(last.query.get('uid')).toBe('900800');
    expect(last.headers['x-api-key']).toBe(ex.apiKey);
  });

  it('answers no for an unregistered or malformed UID (without asking for a malformed one)', async () => {
    expect(await services.checkExchange('CHECK_ONUS', '555')).toBe(false);
    const before = ex.requests.length;
    expect(await services.checkExchange('CHECK_ONUS', '1 OR 1=1')).toBe(false);
    expect(ex.requests.length).toBe(before);
  });

  it('fails with a clear service error when the exchange is down, slow or unconfigured', async () => {
    ex.settings.status = 503;
    await expect(services.checkExchange('CHECK_ONUS', '100200')).rejects.toMatchObject({ service: 'onus', failure: 'bad-response', detail: expect.stringMatching(/onus: bad-response/) });
    ex.settings.status = 200;
    ex.settings.delayMs = 3_000;
    await expect(services.checkExchange('CHECK_ONUS', '100200')).rejects.toMatchObject({ service: 'onus', failure: 'timeout', detail: expect.stringMatching(/onus: timeout/) });
    ex.settings.delayMs = 0;
    const bare = make({});
    await expect(bare.checkExchange('CHECK_BINGX', '900800')).rejects.toMatchObject({ failure: 'unconfigured', detail: expect.stringMatching(/BINGX_CHECK_URL/) });
    await expect(bare.checkExchange('CHECK_BINGX', '900800')).rejects.toBeInstanceOf(OutsideServiceError);
  });

  it('counts the user’s boosts of the configured channel', async () => {
    tg.settings.boosts.set(4242, 3);
    expect(await services.countChannelBoosts('4242')).toBe(3);
    expect(await services.countChannelBoosts('4343')).toBe(0);
    const last = tg.requests.at(-1)!;
    expect(last.path).toBe(`/bot${botToken}/getUserChatBoosts`);
    expect(last.fields).toMatchObject({ chat_id: '@money_channel', user_id: 4343 });
  });

  it('fails the boost count when the Bot API refuses, is slow or is unreachable', async () => {
    const wrongChat = make({ BOT_API_ROOT: tg.apiRoot, BOOST_CHANNEL_ID: '@other_channel', OUTSIDE_TIMEOUT_MS: '1500' });
    await expect(wrongChat.countChannelBoosts('4242')).rejects.toMatchObject({ service: 'telegram', failure: 'refused', detail: expect.stringMatching(/telegram: refused/) });
    tg.settings.delayMs = 3_000;
    try {
      await expect(services.countChannelBoosts('4242')).rejects.toMatchObject({ service: 'telegram', detail: expect.stringMatching(/telegram/) });
    } finally {
      tg.settings.delayMs = 0;
    }
    const down = make({ BOT_API_ROOT: 'http://127.0.0.1:9', OUTSIDE_TIMEOUT_MS: '1500' });
    await expect(down.countChannelBoosts('4242')).rejects.toMatchObject({ service: 'telegram', failure: 'unreachable', detail: expect.stringMatching(/telegram: unreachable/) });
  });
});
