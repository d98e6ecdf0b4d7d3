import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/background/settings.ts';
import { startBot } from '../../server/background/runtime.ts';
import { webhookSecret } from '../../server/bot/settings.ts';
import type { Db } from '../../server/core/db/db.ts';
import { startFakeTelegram, type DeliveredMessage, type FakeTelegram } from '../../server/dev/stand-ins/fake-telegram.ts';
import { openTestDb } from '../server/harness.ts';
import { botToken, openServicesHarness, testEnv, waitFor as until, type ServicesHarness } from './harness.ts';
import { manualClockFor } from './service-env.ts';

let updateMessageId = 1;
const startCommand = (chatId: number, text: string, languageCode?: string) => ({
  message: {
    message_id: updateMessageId++,
    date: 1_760_000_000,
    chat: { id: chatId, type: 'private', first_name: 'Ann' },
    from: { id: chatId, is_bot: false, first_name: 'Ann', ...(languageCode ? { language_code: languageCode } : {}) },
    text,
    entities: [{ type: 'bot_command', offset: 0, length: text.split(' ')[0]!.length }],
  },
});

const waitFor = async <T>(find: () => T | undefined, what: string, ms = 20_000): Promise<T> => {
  const until = Date.now() + ms;
  for (;;) {
    const v = find();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

const buttonUrl = (m: DeliveredMessage) => (m.reply_markup as { inline_keyboard: { web_app?: { url: string } }[][] }).inline_keyboard[0]![0]!.web_app!.url;

describe('the bot', () => {
  let tg: FakeTelegram;
  // The players' database the bot reads (their chosen language) and writes (reachable again, §15.4).
  let db: Db;
  beforeAll(async () => {
    tg = await startFakeTelegram(botToken);
    db = await openTestDb(loadConfig(testEnv('pglite')), 'pglite');
  });
  afterAll(async () => {
    await tg?.close();
    await db?.close();
  });

  /** Runs `body` with a long-polling bot over the fake Telegram (with `env` on top), then stops it. */
  const withBot = async (env: Record<string, string>, body: (bot: Awaited<ReturnType<typeof startBot>>) => Promise<void>) => {
    const config = loadConfig(testEnv('pglite', { BOT_API_ROOT: tg.apiRoot, ...env }));
    const bot = await startBot({ db, config, clock: manualClockFor(), realBot: true, log: () => {} });
    try {
      await body(bot);
    } finally {
      await bot.stop();
    }
  };
  const replyTo = (chat: number) => waitFor(() => tg.delivered.find((m) => Number(m.chat_id) === chat), `reply to ${chat}`);

  it('answers /start by long polling with a web_app button that passes the start parameter through', () =>
    withBot({}, async (bot) => {
      expect(bot.mode).toBe('polling');
      tg.pushUpdate(startCommand(701, '/start AbC123'));
      tg.pushUpdate(startCommand(702, '/start'));
      expect(buttonUrl(await replyTo(701))).toBe('https://money.example/app?tgWebAppStartParam=AbC123');
      expect(buttonUrl(await replyTo(702))).toBe('https://money.example/app');
    }));

  it("answers /start in the player's language, English when it is missing or not one of ours", () =>
    withBot({}, async () => {
      const buttonText = (m: DeliveredMessage) => (m.reply_markup as { inline_keyboard: { text: string }[][] }).inline_keyboard[0]![0]!.text;
      tg.pushUpdate(startCommand(711, '/start', 'ru'));
      tg.pushUpdate(startCommand(712, '/start Ref42', 'pt-br'));
      tg.pushUpdate(startCommand(713, '/start', 'de'));
      tg.pushUpdate(startCommand(714, '/start'));
      const ru = await replyTo(711);
      expect(ru.text).toBe('Добро пожаловать в MONEY! Тапай, чтобы зарабатывать доллары, выполняй задания и собирай $MONEY до аирдропа.');
      expect(buttonText(ru)).toBe('Играть в MONEY');
      const pt = await replyTo(712);
      expect(pt.text).toMatch(/^Bem-vindo ao MONEY!/);
      expect(buttonUrl(pt)).toBe('https://money.example/app?tgWebAppStartParam=Ref42');
      const english = 'Welcome to MONEY! Tap to earn dollars, complete tasks and collect $MONEY before the airdrop.';
      expect((await replyTo(713)).text).toBe(english);
      expect((await replyTo(714)).text).toBe(english);
      expect(buttonText(await replyTo(714))).toBe('Play MONEY');
    }));

  it('answers /admin from an admin with a button that opens the console, and nobody else', () =>
    withBot({ ADMIN_IDS: '704' }, async () => {
      tg.pushUpdate(startCommand(705, '/admin'));
      tg.pushUpdate(startCommand(704, '/admin'));
      expect(buttonUrl(await replyTo(704))).toBe('https://money.example/admin');
      // Updates are handled in order: 705's came first and got no answer.
      expect(tg.delivered.some((x) => Number(x.chat_id) === 705)).toBe(false);
    }));

  it('drops a start payload Telegram would not allow', () =>
    withBot({ MINI_APP_URL: 'https://play.money.example/app' }, async () => {
      tg.pushUpdate(startCommand(703, '/start <script>'));
      expect(buttonUrl(await replyTo(703))).toBe('https://play.money.example/app');
    }));

  it('does not run on a development token', async () => {
    const config = loadConfig(testEnv('pglite', { BOT_API_ROOT: tg.apiRoot }));
    const bot = await startBot({ db: undefined as never, config, clock: manualClockFor(), realBot: false });
    expect(bot.mode).toBe('off');
  });
});

describe('the bot by webhook', () => {
  let tg: FakeTelegram;
  let h: ServicesHarness;
  const hookUrl = 'https://money.example/money/api/v1/airdrop/public/telegram-webhook';
  beforeAll(async () => {
    tg = await startFakeTelegram(botToken);
    h = await openServicesHarness('pglite', { BOT_API_ROOT: tg.apiRoot, WEBHOOK_URL: hookUrl });
  });
  afterAll(async () => {
    await h?.close();
    await tg?.close();
  });

  it('registers WEBHOOK_URL with a secret token', async () => {
    const bot = await startBot({ db: h.db, config: h.config, clock: h.clock, realBot: true, log: () => {} });
    expect(bot.mode).toBe('webhook');
    expect(tg.webhook).toEqual({ url: hookUrl, secret_token: webhookSecret(h.config) });
    await bot.stop();
  });

  const post = (secret: string | undefined, update: object) =>
    h.call('POST', '/public/telegram-webhook', null, { body: update, headers: secret === undefined ? {} : { 'x-telegram-bot-api-secret-token': secret } });

  it('answers an update that carries the secret token, and refuses one without', async () => {
    expect((await post('wrong', { update_id: 1, ...startCommand(801, '/start') })).statusCode).toBe(401);
    expect((await post(undefined, { update_id: 2, ...startCommand(801, '/start') })).statusCode).toBe(401);
    expect(tg.delivered.some((m) => Number(m.chat_id) === 801)).toBe(false);
    const ok = await post(webhookSecret(h.config), { update_id: 3, ...startCommand(802, '/start Ref123') });
    expect(ok.statusCode).toBe(200);
    const m = tg.delivered.find((x) => Number(x.chat_id) === 802)!;
    expect(buttonUrl(m)).toBe('https://money.example/app?tgWebAppStartParam=Ref123');
  });

  it("answers /start in the language the player chose in the mini-app over Telegram's", async () => {
    const id = await h.newPlayer({ language_code: 'ru' });
    expect((await h.call('POST', '/language', id, { body: { language: 'uk' } })).statusCode).toBe(200);
    expect((await post(webhookSecret(h.config), { update_id: 50, ...startCommand(id, '/start', 'ru') })).statusCode).toBe(200);
    const chosen = tg.delivered.find((x) => Number(x.chat_id) === id)!;
    expect(chosen.text).toMatch(/^Вітаємо в MONEY!/);
    // Nothing chosen: Telegram's language.
    const other = await h.newPlayer({ language_code: 'ru' });
    expect((await post(webhookSecret(h.config), { update_id: 51, ...startCommand(other, '/start', 'ru') })).statusCode).toBe(200);
    expect(tg.delivered.find((x) => Number(x.chat_id) === other)!.text).toMatch(/^Добро пожаловать в MONEY!/);
  });

  it('answers a redelivered update once', async () => {
    const update = { update_id: 40, ...startCommand(803, '/start') };
    expect((await post(webhookSecret(h.config), update)).statusCode).toBe(200);
    const again = await post(webhookSecret(h.config), update);
    expect(again.statusCode).toBe(200);
    expect(tg.delivered.filter((x) => Number(x.chat_id) === 803)).toHaveLength(1);
  });
});

describe('the bot by long polling while getUpdates fails', () => {
  let tg: FakeTelegram;
  let h: ServicesHarness;
  beforeAll(async () => {
    tg = await startFakeTelegram(botToken);
    h = await openServicesHarness('pglite', { BOT_API_ROOT: tg.apiRoot });
  });
  afterAll(async () => {
    await h?.close();
    await tg?.close();
  });

  const getUpdatesCalls = () => tg.requests.filter((r) => r.path.endsWith('/getUpdates')).length;

  // grammY waits 3 s after a failed getUpdates and asks again, for as long as the bot runs; the
  // payment's updates wait at Telegram meanwhile and are credited once it answers again.
  it.each([['an error', 'error'], ['nothing for a while', 'hang']] as const)('keeps asking while getUpdates answers %s, and credits the payment once it is back', async (_what, outage) => {
    const player = await h.newPlayer();
    const order = await h.call('POST', '/shop/orders', player, { body: { itemId: 'auto-tap-pack' } });
    expect(order.statusCode, order.body).toBe(200);
    const { invoiceLink, orderId } = order.json<{ invoiceLink: string; orderId: string }>();
    const bot = await startBot({ db: h.db, config: h.config, clock: h.clock, realBot: true, log: () => {} });
    let asked = 0;
    try {
      await until(() => getUpdatesCalls() > 0, 'the first getUpdates');
      // The Bot API fails as the successful_payment is sent, after the pre-checkout was answered.
      tg.transport = async (update) => {
        if ((update.message as { successful_payment?: unknown } | undefined)?.successful_payment !== undefined) {
          tg.settings.updatesOutage = outage;
          asked = getUpdatesCalls();
        }
        const { update_id: _id, ...rest } = update;
        tg.pushUpdate(rest);
        return true;
      };
      expect(await tg.pay(invoiceLink, { id: player })).toMatchObject({ status: 'paid' });
      // Two more calls, each failed: the bot asked again after a failure, then again.
      await until(() => getUpdatesCalls() >= asked + 2, 'getUpdates asked again during the outage');
      const paid = async () => (await h.db.query<{ state: string }>('SELECT state FROM shop_orders WHERE id = $1', [orderId])).rows[0]!.state;
      expect(await paid()).toBe('approved');
      tg.settings.updatesOutage = null;
      await until(async () => (await paid()) === 'paid', 'the payment credited once getUpdates answers');
      const payments = await h.db.query('SELECT charge_id FROM star_payments WHERE order_id = $1', [orderId]);
      expect(payments.rows).toHaveLength(1);
      const xtr = await h.db.query("SELECT amount FROM ledger WHERE user_id = $1 AND currency = 'XTR'", [player]);
      expect(xtr.rows).toHaveLength(1);
    } finally {
      tg.transport = null;
      tg.settings.updatesOutage = null;
      await bot.stop();
    }
  });
});
