/**
 * The game's bot, the same at both doors (long polling in ./runtime.ts, POST /public/telegram-webhook
 * in server/routes/bot.ts): /start in the language the player chose, a player who writes
 * to it is reachable for reminders again (docs/rules.md §15.4), and the Stars shop's payments
 * (docs/shop.md): pre-checkout, the one credit on successful_payment, /paysupport. Its own module,
 * so that the webhook route does not load ./runtime.ts, and with it the job table and every job's feature.
 */
import type { Bot } from 'grammy';
import { localeForLanguageCode } from '../../engine/rules/i18n/locales.ts';
import { refusalCatalogId } from '../../engine/wire/refusals.ts';
import { botAdminOf } from '../console/exports.ts';
import { catalogText } from '../core/catalog-text.ts';
import type { Clock } from '../core/clock.ts';
import type { Config } from './settings.ts';
import type { Db } from '../core/db/db.ts';
import { miniAppUrl } from '../bot/exports.ts';
import { chosenLanguageOf } from '../players/exports.ts';
import { noteBotReachable } from '../daily/exports.ts';
import { createBot, type BotPayments } from '../bot/exports.ts';
import { approveCheckout, creditPayment } from '../shop/exports.ts';

/** The shop's doors as the bot calls them, each answer in the player's language. */
export const shopPayments = (deps: { db: Db; clock: Clock }): BotPayments => {
  const chosen = chosenLanguageOf(deps.db);
  const localeOf = async (userId: number, languageCode: string | undefined) => localeForLanguageCode((await chosen(userId).catch(() => null)) ?? languageCode);
  return {
    checkout: async (q) => {
      const answer = await approveCheckout(deps.db, q, deps.clock.now());
      if (answer.ok) return answer;
      return { ok: false, message: catalogText('app', await localeOf(q.userId, q.languageCode), refusalCatalogId(answer.code)) };
    },
    unavailable: (languageCode) => catalogText('app', localeForLanguageCode(languageCode), refusalCatalogId('shopUnavailable')),
    credit: async (p) => {
      const out = await creditPayment(deps.db, p, deps.clock.now());
      return out.kind === 'credited' ? catalogText('bot', out.locale, 'bot.shop.paid', { title: out.title, orderId: out.orderId }) : null;
    },
    support: async (userId, languageCode) => catalogText('bot', userId === undefined ? localeForLanguageCode(languageCode) : await localeOf(userId, languageCode), 'bot.paysupport'),
  };
};

export const createGameBot = (deps: { db: Db; config: Config; clock: Clock }, token: string): Bot =>
  createBot({
    token,
    apiRoot: deps.config.BOT_API_ROOT,
    miniAppUrl: miniAppUrl(deps.config),
    admin: botAdminOf(deps.config),
    chosenLanguage: chosenLanguageOf(deps.db),
    playerWrote: (userId) => noteBotReachable(deps.db, userId, deps.clock.now(), deps.config.REMINDERS_AWAY_MS),
    payments: shopPayments(deps),
  });
