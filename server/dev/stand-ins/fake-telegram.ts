/**
 * A stand-in for the Telegram Bot API (`/bot<token>/<method>`, https://core.telegram.org/bots/api):
 * getMe, getUpdates (long polling), sendMessage, getChatMember, getUserChatBoosts,
 * savePreparedInlineMessage (checked as strictly as Telegram: the user, the result's type, id,
 * URLs, caption and buttons, at least one allowed chat type), setWebhook/deleteWebhook. Failures have Telegram's shape `{ ok: false, error_code, description,
 * parameters? }`: 401 for another token, 400 "Bad Request: chat not found" for a chat it does not
 * know, 403 "Forbidden: bot was blocked by the user", 429 with `parameters.retry_after`. Channel
 * membership and boosts come from state the test (or the demo) sets. It can also deliver and then
 * never answer (a crash window). Tests and the demo share it (docs/outside-services.md).
 */
import { startFakeServer, type FakeReply, type FakeServer } from './fake-server.ts';

export interface DeliveredMessage {
  chat_id: number | string;
  text: string;
  reply_markup?: unknown;
  /** Wall time of delivery (ms), to check throttling. */
  at: number;
}

export interface FakeTelegramSettings {
  /** Every Nth sendMessage (1-based count of attempts) answers 429 with this retry_after (s). */
  rateLimit: { everyN: number; retryAfterS: number } | null;
  /** Chat ids that blocked the bot: 403. */
  blocked: Set<number>;
  /** From this delivery index on (0-based), deliver but never answer: the crash window. */
  holdFromDelivery: number | null;
  /** Delay every answer (timeouts). */
  delayMs: number;
  /** Boosts per user id in `boostChat`. */
  boosts: Map<number, number>;
  /** Member status per user id in `boostChat` (the channel); absent = 'left'. */
  members: Map<number, ChatMemberStatus>;
  /** The channel (@username) the bot administers: the only chat getChatMember/getUserChatBoosts know. */
  boostChat: string;
  /** Private chats that do not exist (a user id Telegram never saw): sendMessage answers 400. */
  unknownChats: Set<number>;
}

/** A message prepared with savePreparedInlineMessage, as the fake kept it. */
export interface PreparedMessage {
  id: string;
  user_id: number;
  result: Record<string, unknown>;
  allowed: { user: boolean; bot: boolean; group: boolean; channel: boolean };
  expiration_date: number;
}

/** How long Telegram keeps a prepared message (s). */
export const preparedMessageLifetimeS = 24 * 3600;

const inlineResultTypes = new Set(['article', 'photo', 'gif', 'mpeg4_gif', 'video', 'audio', 'voice', 'document', 'location', 'venue', 'contact', 'game', 'sticker']);
/** Buttons Telegram refuses in a message shared to other chats. */
const buttonKindsRefused = ['web_app', 'login_url', 'callback_game', 'pay'];
const httpUrl = (v: unknown): boolean => {
  if (typeof v !== 'string') return false;
  try {
    const u = new URL(v);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
};
const jsonField = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return undefined;
  }
};

/** What Telegram answers to a bad savePreparedInlineMessage, or null when the call is good. */
export const preparedMessageRefusal = (p: Record<string, unknown>): string | null => {
  const userId = Number(p.user_id);
  if (p.user_id === undefined) return 'Bad Request: parameter "user_id" is required';
  if (!Number.isSafeInteger(userId) || userId <= 0) return 'Bad Request: invalid user_id specified';
  if (p.result === undefined) return 'Bad Request: parameter "result" is required';
  const result = jsonField(p.result);
  if (!result || typeof result !== 'object' || Array.isArray(result)) return "Bad Request: can't parse inline query result JSON object";
  const r = result as Record<string, unknown>;
  if (typeof r.type !== 'string' || !inlineResultTypes.has(r.type)) return 'Bad Request: RESULT_TYPE_INVALID';
  if (typeof r.id !== 'string' || r.id.length === 0 || Buffer.byteLength(r.id) > 64) return 'Bad Request: RESULT_ID_INVALID';
  if (r.type === 'photo') {
    if (!httpUrl(r.photo_url)) return 'Bad Request: PHOTO_URL_INVALID';
    if (!httpUrl(r.thumbnail_url)) return 'Bad Request: PHOTO_THUMB_URL_EMPTY';
  }
  if (r.type === 'article' && (typeof r.title !== 'string' || !r.title || !r.input_message_content)) return 'Bad Request: MESSAGE_EMPTY';
  if (typeof r.caption === 'string' && [...r.caption].length > 1024) return 'Bad Request: MEDIA_CAPTION_TOO_LONG';
  if (r.reply_markup !== undefined) {
    const rows = (r.reply_markup as { inline_keyboard?: unknown }).inline_keyboard;
    if (!Array.isArray(rows) || rows.some((row) => !Array.isArray(row))) return 'Bad Request: REPLY_MARKUP_INVALID';
    for (const button of rows.flat() as Array<Record<string, unknown>>) {
      if (typeof button.text !== 'string' || button.text.trim() === '') return 'Bad Request: BUTTON_TEXT_INVALID';
      if (buttonKindsRefused.some((kind) => kind in button)) return 'Bad Request: BUTTON_TYPE_INVALID';
      if ('url' in button && !/^(https?|tg):\/\//.test(String(button.url))) return 'Bad Request: BUTTON_URL_INVALID';
    }
  }
  const allowed = ['allow_user_chats', 'allow_bot_chats', 'allow_group_chats', 'allow_channel_chats'].some((k) => jsonField(p[k]) === true);
  if (!allowed) return 'Bad Request: at least one chat type must be allowed';
  return null;
};

export type ChatMemberStatus = 'creator' | 'administrator' | 'member' | 'restricted' | 'left' | 'kicked';

export interface FakeTelegram extends FakeServer {
  apiRoot: string;
  token: string;
  delivered: DeliveredMessage[];
  /** sendMessage calls answered 429. */
  readonly rateLimited: number;
  /** Wall times of the 429 answers. */
  rateLimitedAt: number[];
  webhook: { url: string; secret_token?: string } | null;
  settings: FakeTelegramSettings;
  pushUpdate(update: Record<string, unknown>): void;
  /** How many deliveries were made without an answer (holdFromDelivery). */
  readonly held: number;
  /** Messages prepared with savePreparedInlineMessage, in order. */
  prepared: PreparedMessage[];
}

export const startFakeTelegram = async (token = '123456:TEST-token'): Promise<FakeTelegram> => {
  const settings: FakeTelegramSettings = {
    rateLimit: null,
    blocked: new Set(),
    holdFromDelivery: null,
    delayMs: 0,
    boosts: new Map(),
    members: new Map(),
    boostChat: '@money_channel',
    unknownChats: new Set(),
  };
  const delivered: DeliveredMessage[] = [];
  const prepared: PreparedMessage[] = [];
  const updates: Array<Record<string, unknown>> = [];
  let nextUpdateId = 1;
  let sendAttempts = 0;
  const counters = { rateLimited: 0, held: 0 };
  const rateLimitedAt: number[] = [];
  const hooks = { webhook: null as FakeTelegram['webhook'] };
  const ok = (result: unknown): FakeReply => ({ delayMs: settings.delayMs, json: { ok: true, result } });
  const fail = (status: number, description: string, parameters?: object): FakeReply => ({
    status,
    delayMs: settings.delayMs,
    json: { ok: false, error_code: status, description, ...(parameters ? { parameters } : {}) },
  });

  const server = await startFakeServer(async (req) => {
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.path);
    if (!match) return { status: 404, json: { ok: false, error_code: 404, description: 'Not Found' } };
    if (match[1] !== token) return fail(401, 'Unauthorized');
    const p = { ...Object.fromEntries(req.query), ...req.fields } as Record<string, unknown>;
    switch (match[2]) {
      case 'getMe':
        return ok({ id: Number(token.split(':')[0]), is_bot: true, first_name: 'Money', username: 'money_test_bot', can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false });
      case 'getUpdates': {
        const offset = Number(p.offset ?? 0);
        const deadline = Date.now() + Math.min(Number(p.timeout ?? 0) * 1000, 500);
        for (;;) {
          const pending = updates.filter((u) => Number(u.update_id) >= offset);
          if (pending.length || Date.now() >= deadline) return ok(pending);
          await new Promise((r) => setTimeout(r, 20));
        }
      }
      case 'sendMessage': {
        sendAttempts += 1;
        const chatId = Number(p.chat_id);
        if (settings.rateLimit && sendAttempts % settings.rateLimit.everyN === 0) {
          counters.rateLimited += 1;
          rateLimitedAt.push(Date.now());
          const s = settings.rateLimit.retryAfterS;
          return fail(429, `Too Many Requests: retry after ${s}`, { retry_after: s });
        }
        if (!Number.isSafeInteger(chatId) || settings.unknownChats.has(chatId)) return fail(400, 'Bad Request: chat not found');
        if (settings.blocked.has(chatId)) return fail(403, 'Forbidden: bot was blocked by the user');
        const index = delivered.length;
        delivered.push({ chat_id: p.chat_id as number, text: String(p.text ?? ''), reply_markup: p.reply_markup, at: Date.now() });
        const message = { message_id: index + 1, date: Math.floor(Date.now() / 1000), chat: { id: chatId, type: 'private' }, text: p.text };
        if (settings.holdFromDelivery !== null && index >= settings.holdFromDelivery) {
          counters.held += 1;
          return { ...ok(message), delayMs: 3_600_000 };
        }
        return ok(message);
      }
      case 'getChatMember': {
        if (String(p.chat_id) !== settings.boostChat) return fail(400, 'Bad Request: chat not found');
        const userId = Number(p.user_id);
        if (!Number.isSafeInteger(userId) || userId <= 0) return fail(400, 'Bad Request: invalid user_id specified');
        const status = settings.members.get(userId) ?? 'left';
        const user = { id: userId, is_bot: false, first_name: `User${userId}` };
        return ok(status === 'restricted' ? { status, user, is_member: true, until_date: 0 } : status === 'kicked' ? { status, user, until_date: 0 } : { status, user });
      }
      case 'getUserChatBoosts': {
        if (String(p.chat_id) !== settings.boostChat) return fail(400, 'Bad Request: chat not found');
        if (!Number.isSafeInteger(Number(p.user_id)) || Number(p.user_id) <= 0) return fail(400, 'Bad Request: invalid user_id specified');
        const n = settings.boosts.get(Number(p.user_id)) ?? 0;
        const boost = (i: number) => ({ boost_id: `b${i}`, add_date: 1, expiration_date: 2, source: { source: 'premium', user: { id: Number(p.user_id), is_bot: false, first_name: 'u' } } });
        return ok({ boosts: Array.from({ length: n }, (_, i) => boost(i)) });
      }
      case 'savePreparedInlineMessage': {
        const refusal = preparedMessageRefusal(p);
        if (refusal) return fail(400, refusal);
        const userId = Number(p.user_id);
        if (settings.unknownChats.has(userId)) return fail(400, 'Bad Request: USER_ID_INVALID');
        if (settings.blocked.has(userId)) return fail(403, 'Forbidden: bot was blocked by the user');
        const message: PreparedMessage = {
          id: `prep${prepared.length + 1}${Math.random().toString(36).slice(2, 10)}`,
          user_id: userId,
          result: jsonField(p.result) as Record<string, unknown>,
          allowed: {
            user: jsonField(p.allow_user_chats) === true,
            bot: jsonField(p.allow_bot_chats) === true,
            group: jsonField(p.allow_group_chats) === true,
            channel: jsonField(p.allow_channel_chats) === true,
          },
          expiration_date: Math.floor(Date.now() / 1000) + preparedMessageLifetimeS,
        };
        prepared.push(message);
        return ok({ id: message.id, expiration_date: message.expiration_date });
      }
      case 'setWebhook':
        hooks.webhook = { url: String(p.url), ...(p.secret_token ? { secret_token: String(p.secret_token) } : {}) };
        return ok(true);
      case 'deleteWebhook':
        hooks.webhook = null;
        return ok(true);
      case 'setMyCommands':
      case 'answerCallbackQuery':
        return ok(true);
      default:
        return fail(404, `Not Found: method ${match[2]}`);
    }
  });

  return {
    ...server,
    apiRoot: server.url,
    token,
    delivered,
    prepared,
    get rateLimited() {
      return counters.rateLimited;
    },
    rateLimitedAt,
    get webhook() {
      return hooks.webhook;
    },
    set webhook(v) {
      hooks.webhook = v;
    },
    get held() {
      return counters.held;
    },
    settings,
    pushUpdate: (update) => void updates.push({ update_id: nextUpdateId++, ...update }),
  };
};
