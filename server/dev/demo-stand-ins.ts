/**
 * The `npm start` demo without outside credentials (docs/outside-services.md "Demo stand-ins"):
 * for each outside service whose credentials are empty, the stand-in the tests use is started on
 * 127.0.0.1, and the config points at it. The server then talks to it over HTTP through exactly
 * the code it uses with the real service (siteverify, X OAuth, exchange checks, getUserChatBoosts,
 * getChatMember, Adsgram's reward callback). The browser-facing halves (the captcha widget, the ad
 * SDK, t.me's boost and join pages) are small scripts and pages under /dev/demo, each marked
 * "demo". Never in production: the config refuses DEMO_STAND_INS there.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { apiPrefix, demoPaths, type DemoService } from '../../engine/wire/api-types.ts';
import type { Config } from '../background/settings.ts';
import { publicUrl } from '../core/config/outside-config.ts';
import { boostChannelId } from '../tasks/exports.ts';
import { xCallbackUrl } from '../x-account/exports.ts';
import { adsgramRewardUrl, sendAdsgramReward } from './stand-ins/adsgram-driver.ts';
import { adsgramSdkScript } from './stand-ins/adsgram-sdk.ts';
import { exchangeSettings, startFakeExchanges, type FakeExchanges } from './stand-ins/fake-exchanges.ts';
import { startFakeTelegram, type FakeTelegram } from './stand-ins/fake-telegram.ts';
import { startFakeTurnstile, type FakeTurnstile } from './stand-ins/fake-turnstile.ts';
import { startFakeX, xSettings, type FakeX } from './stand-ins/fake-x.ts';
import { turnstileWidgetScript } from './stand-ins/turnstile-widget.ts';
import { starsSheetScript } from './stand-ins/stars-sheet.ts';
import { refuse } from '../core/errors.ts';

/** The exchange id the demo's partner exchanges know as signed up through our link. */
export const demoExchangeUid = '100100';
/** The demo's Adsgram blocks (§7: the block id is chosen from a fixed list). */
export const demoAdsBlockIds = 'demo-block-1,demo-block-2';


export interface DemoStandIns {
  services: DemoService[];
  /** The config with the stand-ins' URLs and credentials filled in. */
  config: Config;
  turnstile?: FakeTurnstile;
  x?: FakeX;
  exchanges?: FakeExchanges;
  telegram?: FakeTelegram;
  close(): Promise<void>;
}

const secret = () => randomBytes(18).toString('base64url');

/** Starts a stand-in for every service `config` has no credentials for. */
export const startDemoStandIns = async (config: Config, botToken: string): Promise<DemoStandIns> => {
  const c: Config = { ...config };
  const out: Omit<DemoStandIns, 'close' | 'config'> = { services: [] };
  if (!c.TURNSTILE_SECRET) {
    const ts = (out.turnstile = await startFakeTurnstile(secret(), `0x4AAAAAAAdemo${randomBytes(6).toString('hex')}`));
    // The demo is opened as localhost or 127.0.0.1: the widget reports whichever the page has.
    const hostnames = c.TURNSTILE_HOSTNAMES || [...new Set([new URL(publicUrl(c)).hostname, 'localhost', '127.0.0.1'])].join(',');
    Object.assign(c, { TURNSTILE_SECRET: ts.secret, TURNSTILE_VERIFY_URL: ts.verifyUrl, TURNSTILE_SITE_KEY: ts.siteKey, TURNSTILE_HOSTNAMES: hostnames });
    out.services.push('turnstile');
  }
  if (!c.X_CLIENT_ID) {
    const x = (out.x = await startFakeX([xCallbackUrl(c)], 'demo-x-client', secret()));
    x.settings.nextUser = { id: '4242', username: 'demo_x_user', profile_image_url: '', created_at: '2016-05-01T00:00:00.000Z' };
    Object.assign(c, xSettings(x));
    out.services.push('x');
  }
  if (!c.ONUS_CHECK_URL && !c.BINGX_CHECK_URL) {
    const ex = (out.exchanges = await startFakeExchanges(secret()));
    ex.register('onus', demoExchangeUid);
    ex.register('bingx', demoExchangeUid);
    Object.assign(c, exchangeSettings(ex));
    out.services.push('exchanges');
  }
  if (config.BOT_TOKEN === undefined) {
    const tg = (out.telegram = await startFakeTelegram(botToken));
    tg.settings.boostChat = boostChannelId(c);
    Object.assign(c, { BOT_API_ROOT: tg.apiRoot });
    out.services.push('telegram');
  }
  if (!c.ADS_TOKEN_SECRET) {
    Object.assign(c, { ADS_TOKEN_SECRET: secret(), ADSGRAM_CALLBACK_KEY: secret(), ADSGRAM_BLOCK_ID: c.ADSGRAM_BLOCK_ID || demoAdsBlockIds });
    out.services.push('ads');
  }
  const all = [out.turnstile, out.x, out.exchanges, out.telegram];
  return { ...out, config: c, close: async () => void (await Promise.all(all.map((s) => s?.close()))) };
};

const page = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title>` +
  `<body style="font:16px system-ui;padding:24px;text-align:center"><p><b>${title}</b> <small>(demo)</small></p><p>${text}</p><p>You can close this tab.</p></body>`;

/** The browser-facing halves of the stand-ins, on our own origin (so the mini-app's CSP allows them). */
export const registerDemoRoutes = (app: FastifyInstance, demo: DemoStandIns, port: () => number): void => {
  const { turnstile, telegram, config } = demo;
  if (turnstile) {
    app.get(demoPaths.turnstileScript, (_req, reply) => reply.type('text/javascript').send(turnstileWidgetScript(demoPaths.turnstileSolve)));
    // The widget's own solve step, forwarded over HTTP to the stand-in that siteverify asks later.
    app.post(demoPaths.turnstileSolve, async (req, reply) => {
      const res = await fetch(`${turnstile.url}/demo/solve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(req.body ?? {}) });
      return reply.code(res.status).send(await res.json());
    });
  }
  if (demo.services.includes('ads')) {
    app.get(demoPaths.adsgramScript, (_req, reply) => reply.type('text/javascript').send(adsgramSdkScript(demoPaths.adsgramWatched)));
    // After a full view Adsgram's server calls our reward URL; the demo does the same, over HTTP.
    app.post<{ Body: { userId?: unknown } }>(demoPaths.adsgramWatched, async (req) => {
      const userId = Number(req.body?.userId);
      if (!Number.isSafeInteger(userId) || userId <= 0) throw refuse('devNotTelegramUserId', { field: 'userId' });
      const base = `http://127.0.0.1:${port()}${apiPrefix}`;
      return sendAdsgramReward(adsgramRewardUrl(base, config.ADSGRAM_CALLBACK_KEY), userId);
    });
  }
  if (telegram) {
    // t.me/boost/<channel> boosts it and t.me/<channel> joins it, for the Telegram user `user`.
    app.get<{ Params: { '*': string }; Querystring: { user?: string } }>(`${demoPaths.telegramPage}*`, (req, reply) => {
      const user = Number(req.query.user);
      if (!Number.isSafeInteger(user) || user <= 0) throw refuse('devNotTelegramUserId', { field: 'user' });
      // The stand-in plays our channel (BOOST_CHANNEL_ID / CHANNEL_URL) whichever name the task's link has.
      const first = req.params['*'].split('/')[0];
      const channel = telegram.settings.boostChat;
      if (first === 'boost') {
        telegram.settings.boosts.set(user, (telegram.settings.boosts.get(user) ?? 0) + 1);
        return reply.type('text/html').send(page('Telegram', telegramPageText({ kind: 'boost', channel, boosts: telegram.settings.boosts.get(user) ?? 1 })));
      }
      telegram.settings.members.set(user, 'member');
      return reply.type('text/html').send(page('Telegram', telegramPageText({ kind: 'join', channel, chat: first ?? '' })));
    });
    // The Stars payment sheet (docs/shop.md "Demo"): the invoice's title and price, and paying it,
    // which the stand-in runs as Telegram does: pre_checkout_query to the bot, then successful_payment.
    app.get(demoPaths.starsScript, (_req, reply) => reply.type('text/javascript').send(starsSheetScript(demoPaths.starsInvoice, demoPaths.starsPay)));
    app.get<{ Querystring: { link?: string } }>(demoPaths.starsInvoice, async (req) => {
      const invoice = telegram.invoiceOf(String(req.query.link ?? ''));
      if (invoice === undefined) throw refuse('shopOrderNotFound', { field: 'link', values: { orderId: '?' } });
      return { title: invoice.title, amount: invoice.amount };
    });
    app.post<{ Body: { link?: unknown; userId?: unknown } }>(demoPaths.starsPay, async (req) => {
      const userId = Number(req.body?.userId);
      if (!Number.isSafeInteger(userId) || userId <= 0) throw refuse('devNotTelegramUserId', { field: 'userId' });
      return telegram.pay(String(req.body?.link ?? ''), { id: userId });
    });
  }
};

/**
 * What the demo's Telegram page says. It names the chat of the link the player opened (the channel,
 * or the community group), and says when the demo counts that as joining the channel the invite
 * rule checks; boosts are counted in words ("1 boost", "2 boosts").
 */
export const telegramPageText = (
  p: { kind: 'boost'; channel: string; boosts: number } | { kind: 'join'; channel: string; chat: string },
): string => {
  if (p.kind === 'boost') return `You boosted ${p.channel} (${p.boosts} ${new Intl.PluralRules('en').select(p.boosts) === 'one' ? 'boost' : 'boosts'}).`;
  const chat = p.chat ? `@${p.chat.replace(/^@/, '')}` : p.channel;
  return chat.toLowerCase() === p.channel.toLowerCase()
    ? `You joined ${p.channel}.`
    : `You joined ${chat}. In this demo it also counts as joining ${p.channel}, the channel the invite bonus asks for.`;
};

/** What main.ts prints about the demo. */
export const demoBanner = (demo: DemoStandIns, config: Config): string[] =>
  demo.services.length === 0
    ? []
    : [
        `  Demo:         stand-ins on 127.0.0.1 for ${demo.services.join(', ')} (no credentials; never in production)`,
        ...(demo.exchanges ? [`                partner exchanges know ID ${demoExchangeUid}`] : []),
        ...(demo.telegram ? [`                channel ${config.CHANNEL_URL}: boost and join it from the Earn tasks; Stars shop on Boost pays through a demo sheet`] : []),
      ];
