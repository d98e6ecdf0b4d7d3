/**
 * The invite as a rich message (Bot API 8.0 `savePreparedInlineMessage`): the bot prepares, for
 * one player, a photo message with the reward card, the player's name and title and the fixed
 * invite text, and a button that opens the mini-app with the player's refcode as its start
 * parameter. The mini-app shares it with `WebApp.shareMessage(id)` (docs/mini-app.md "Invite").
 * The call goes to the configured Bot API root like the bot's own (BOT_API_ROOT), with the outside
 * timeout; any failure is an OutsideServiceError, and the mini-app then shares the t.me link.
 */
import { Api, GrammyError } from 'grammy';
import type { InlineQueryResultPhoto } from 'grammy/types';
import type { PreparedInvite } from '../../engine/wire/api-types.ts';
import { localeForLanguageCode, type Locale } from '../../engine/rules/i18n/locales.ts';
import { titleCatalogId, titleFor } from '../../engine/rules/titles.ts';
import { catalogText } from '../core/catalog-text.ts';
import type { CoreConfig } from '../core/config/config.ts';
import type { Queryable } from '../core/db/db.ts';
import { publicUrl } from '../core/config/outside-config.ts';
import { OutsideServiceError, requireSettings } from '../core/outside-http.ts';
import { loadUser, type VerifiedInitData } from '../players/exports.ts';
import { refLinkOf } from './ref-link.ts';

/** The reward card as Telegram wants a photo result: a JPEG (public/invite-card.jpg, docs/art.md). */
export const inviteCard = { path: '/invite-card.jpg', width: 1200, height: 630 } as const;

export interface InviteMessage {
  /** The inviter's name as friends see it. */
  name: string;
  /** The inviter's title (§2), in the language of the message. */
  title: string;
  refLink: string;
  refcode: string;
  locale: Locale;
  /** The site's origin, where the card is served. */
  publicUrl: string;
}

/** The inline result a friend receives: the card, who invites them with their title, and the mini-app button. */
export const inviteResult = (m: InviteMessage): InlineQueryResultPhoto => {
  const card = `${m.publicUrl.replace(/\/+$/, '')}${inviteCard.path}`;
  return {
    type: 'photo',
    id: `invite-${m.refcode}`,
    photo_url: card,
    thumbnail_url: card,
    photo_width: inviteCard.width,
    photo_height: inviteCard.height,
    caption: `${m.name} · ${m.title}\n${catalogText('app', m.locale, 'app.share.text')}`,
    // A url button: a web_app button is refused in a message shared to other chats.
    reply_markup: { inline_keyboard: [[{ text: catalogText('bot', m.locale, 'bot.start.button'), url: m.refLink }]] },
  };
};

type InviteConfig = Pick<CoreConfig, 'BOT_TOKEN' | 'BOT_API_ROOT' | 'BOT_USERNAME' | 'MINI_APP_NAME' | 'PUBLIC_URL' | 'PORT' | 'OUTSIDE_TIMEOUT_MS'>;

/** POST /invite/prepared: prepares the player's invite with the Bot API and returns its id. */
export const prepareInvite = async (q: Queryable, config: InviteConfig, playerId: number, initData: VerifiedInitData): Promise<PreparedInvite> => {
  // The card's address is PUBLIC_URL's, by default http://localhost:PORT (docs/configuration.md):
  // the demo's Bot API stand-in prepares it; Telegram itself needs a PUBLIC_URL it can fetch.
  requireSettings('telegram', { BOT_TOKEN: config.BOT_TOKEN });
  const token = config.BOT_TOKEN!;
  const row = await loadUser(q, playerId);
  const locale = localeForLanguageCode(row.language ?? initData.user.language_code);
  const result = inviteResult({
    name: row.tele_name || row.tele_username || initData.user.first_name,
    title: catalogText('app', locale, titleCatalogId(titleFor(row.tele_age, row.tw_age))),
    refLink: refLinkOf(config.BOT_USERNAME, config.MINI_APP_NAME, row.refcode),
    refcode: row.refcode,
    locale,
    publicUrl: publicUrl(config),
  });
  const api = new Api(token, { apiRoot: config.BOT_API_ROOT, timeoutSeconds: Math.ceil(config.OUTSIDE_TIMEOUT_MS / 1000) });
  try {
    const prepared = await api.savePreparedInlineMessage(initData.user.id, result, {
      allow_user_chats: true,
      allow_group_chats: true,
      allow_channel_chats: true,
    });
    return { id: prepared.id, expirationDate: prepared.expiration_date };
  } catch (err) {
    if (err instanceof GrammyError) throw new OutsideServiceError('telegram', 'refused', `${err.error_code} ${err.description}`, { cause: err });
    throw new OutsideServiceError('telegram', 'unreachable', err instanceof Error ? err.message : String(err), { cause: err });
  }
};
