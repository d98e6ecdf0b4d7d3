/**
 * The game's bot, the same at both doors (long polling in ./runtime.ts, POST /public/telegram-webhook
 * in server/routes/outside-bot.ts): /start in the language the player chose, and a player who writes
 * to it is reachable for reminders again (docs/rules.md §15.4). Its own module, so that the webhook
 * route does not load ./runtime.ts, and with it the job table and every job's feature.
 */
import type { Bot } from 'grammy';
import { botAdminOf } from '../core/config/admin-config.ts';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../core/config/config.ts';
import type { Db } from '../core/db/db.ts';
import { miniAppUrl } from '../core/config/outside-config.ts';
import { chosenLanguageOf } from '../players/exports.ts';
import { noteBotReachable } from '../daily/exports.ts';
import { createBot } from '../bot/exports.ts';

export const createGameBot = (deps: { db: Db; config: Config; clock: Clock }, token: string): Bot =>
  createBot({
    token,
    apiRoot: deps.config.BOT_API_ROOT,
    miniAppUrl: miniAppUrl(deps.config),
    admin: botAdminOf(deps.config),
    chosenLanguage: chosenLanguageOf(deps.db),
    playerWrote: (userId) => noteBotReachable(deps.db, userId, deps.clock.now()),
  });
