/**
 * The grammY bot: `/start [payload]` answers, in the player's language (docs/i18n.md), with a button
 * that opens the mini-app and passes the start parameter through; any private message tells the
 * caller's `playerWrote` the player can be reached again (docs/rules.md §15.4). The Bot API root
 * comes from config so tests talk to a fake.
 */
import { Bot, InlineKeyboard } from 'grammy';
import { localeForLanguageCode, locales } from '../../engine/rules/i18n/locales.ts';
import { catalogText } from '../core/catalog-text.ts';

/** The /start reply in each language, made once when the bot is built (docs/i18n.md). */
const startTexts = () =>
  new Map(locales.map((l) => [l, { message: catalogText('bot', l, 'bot.start.message'), button: catalogText('bot', l, 'bot.start.button') }]));

export interface BotOptions {
  token: string;
  /** Bot API root, e.g. https://api.telegram.org (grammY `client.apiRoot`). */
  apiRoot: string;
  /** The mini-app URL the web_app button opens. */
  miniAppUrl: string;
  /** Abort a Bot API call after this many seconds (grammY default is 500). */
  timeoutSeconds?: number;
  /** The operator console: `/admin` from one of these ids answers with a button that opens it (docs/admin.md). */
  admin?: { url: string; ids: ReadonlySet<number> };
  /**
   * The language a player chose in the mini-app (`users.language`), or null. /start prefers it to
   * Telegram's language_code; a failed or slow lookup answers in Telegram's.
   */
  chosenLanguage?: (userId: number) => Promise<string | null>;
  /**
   * A player wrote in the bot's private chat (/start or any message), so the bot can reach them
   * again: the daily feature's `noteBotReachable` (docs/rules.md §15.4). Its failure is logged and
   * never holds up the reply; the update's handling (in webhook mode, Telegram's HTTP answer) ends
   * with it, so for a player with nothing to clear it is one plain read.
   */
  playerWrote?: (userId: number) => Promise<unknown>;
  /** The Stars shop's doors (docs/shop.md): pre-checkout, the one credit, and /paysupport. */
  payments?: BotPayments;
}

/** What the bot asks the shop, in the player's language (`locale` is theirs, docs/i18n.md). */
export interface BotPayments {
  /** pre_checkout_query: ok, or the message the player reads. Must settle well within Telegram's 10 s. */
  checkout(q: { userId: number; payload: string; currency: string; totalAmount: number; languageCode: string | undefined }): Promise<{ ok: true } | { ok: false; message: string }>;
  /** The refusal the player reads when checkout did not settle in time (the database is away). */
  unavailable(languageCode: string | undefined): string;
  /** successful_payment: credits once; the reply to send, if any. Throws when it could not be recorded (the update is then not acknowledged). */
  credit(p: { userId: number; chargeId: string; payload: string; currency: string; totalAmount: number }): Promise<string | null>;
  /** /paysupport's answer. */
  support(userId: number | undefined, languageCode: string | undefined): Promise<string>;
}

/** The updates the bot asks Telegram for: messages (successful_payment among them) and pre-checkout queries. */
export const allowedUpdates = ['message', 'pre_checkout_query'] as const;

/** How long pre-checkout may take before the bot refuses it: Telegram cancels the payment at 10 s. */
export const checkoutBudgetMs = 7_000;

/** A successful_payment whose credit failed is tried again after these waits (long polling only; a webhook answers non-2xx and Telegram redelivers). */
const creditRetryMs = (attempt: number): number => Math.min(30_000, 500 * 2 ** attempt);

/** Telegram's rule for start parameters: up to 64 of [A-Za-z0-9_-]. */
export const isStartPayload = (payload: string): boolean => /^[A-Za-z0-9_-]{1,64}$/.test(payload);

/**
 * The mini-app URL for a start payload: `?tgWebAppStartParam=<payload>`, the query parameter that
 * Telegram's own direct links use, so the client reads the start parameter one way for both.
 */
export const miniAppLink = (miniAppUrl: string, payload: string | undefined): string => {
  const url = new URL(miniAppUrl);
  if (payload && isStartPayload(payload)) url.searchParams.set('tgWebAppStartParam', payload);
  return url.toString();
};

export const adminButtonText = 'Open the console';

/** Builds the bot with its handlers; no network until it is started or handles an update. */
export const createBot = (opts: BotOptions): Bot => {
  const bot = new Bot(opts.token, { client: { apiRoot: opts.apiRoot, timeoutSeconds: opts.timeoutSeconds ?? 30 } });
  const start = startTexts();
  const wrote = opts.playerWrote;
  if (wrote !== undefined) {
    bot.on('message', async (ctx, next) => {
      const seen = ctx.chat.type === 'private' && ctx.from !== undefined ? wrote(ctx.from.id).catch((err: unknown) => console.error('bot: noting a player failed', err)) : undefined;
      await next();
      await seen;
    });
  }
  bot.command('start', async (ctx) => {
    const payload = ctx.match.trim();
    // The player's language: the one chosen in the mini-app, else Telegram's language_code, else English.
    const chosen = ctx.from && opts.chosenLanguage ? await opts.chosenLanguage(ctx.from.id).catch(() => null) : null;
    const text = start.get(localeForLanguageCode(chosen ?? ctx.from?.language_code))!;
    const keyboard = new InlineKeyboard().webApp(text.button, miniAppLink(opts.miniAppUrl, payload));
    await ctx.reply(text.message, { reply_markup: keyboard });
  });
  const payments = opts.payments;
  if (payments !== undefined) {
    bot.on('pre_checkout_query', async (ctx) => {
      const q = ctx.preCheckoutQuery;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), checkoutBudgetMs);
      });
      const answer = await Promise.race([
        payments.checkout({ userId: q.from.id, payload: q.invoice_payload, currency: q.currency, totalAmount: q.total_amount, languageCode: q.from.language_code }).catch((err: unknown) => {
          console.error('bot: pre-checkout failed', err);
          return null;
        }),
        late,
      ]).finally(() => clearTimeout(timer));
      const settled = answer ?? { ok: false as const, message: payments.unavailable(q.from.language_code) };
      await ctx.answerPreCheckoutQuery(settled.ok, settled.ok ? undefined : { error_message: settled.message });
    });
    bot.on('message:successful_payment', async (ctx) => {
      const p = ctx.message.successful_payment;
      const reply = await payments.credit({ userId: ctx.from.id, chargeId: p.telegram_payment_charge_id, payload: p.invoice_payload, currency: p.currency, totalAmount: p.total_amount });
      if (reply !== null) await ctx.reply(reply).catch((err: unknown) => console.error('bot: payment reply failed', err));
    });
    bot.command('paysupport', async (ctx) => {
      await ctx.reply(await payments.support(ctx.from?.id, ctx.from?.language_code));
    });
  }
  const admin = opts.admin;
  if (admin !== undefined) {
    // Opened as a web app, the console gets signed init data and signs in with it. Others get no hint.
    bot.command('admin', async (ctx) => {
      if (ctx.from === undefined || !admin.ids.has(ctx.from.id)) return;
      await ctx.reply('MONEY operator console', { reply_markup: new InlineKeyboard().webApp(adminButtonText, admin.url) });
    });
  }
  bot.catch(async (err) => {
    // One bad update must not stop polling; the error is logged and the next update handled. A
    // payment is money: its credit is tried again until it is recorded (the database back) or the
    // bot stops, holding the updates after it, which would fail the same way meanwhile.
    console.error('bot: update failed', err.error);
    if (err.ctx.message?.successful_payment === undefined || payments === undefined) return;
    for (let attempt = 0; bot.isRunning(); attempt++) {
      await new Promise((r) => setTimeout(r, creditRetryMs(attempt)));
      try {
        await bot.handleUpdate(err.ctx.update);
        return;
      } catch (again) {
        console.error('bot: payment credit failed again', (again as { error?: unknown }).error ?? again);
      }
    }
  });
  return bot;
};
