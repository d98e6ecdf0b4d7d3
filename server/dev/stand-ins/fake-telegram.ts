/**
 * A stand-in for the Telegram Bot API (`/bot<token>/<method>`, https://core.telegram.org/bots/api):
 * getMe, getUpdates (long polling), sendMessage, getChatMember, getUserChatBoosts,
 * savePreparedInlineMessage (checked as strictly as Telegram: the user, the result's type, id,
 * URLs, caption and buttons, at least one allowed chat type), setWebhook/deleteWebhook. Failures have Telegram's shape `{ ok: false, error_code, description,
 * parameters? }`: 401 for another token, 400 "Bad Request: chat not found" for a chat it does not
 * know, 403 "Forbidden: bot was blocked by the user", 429 with `parameters.retry_after`. Channel
 * membership and boosts come from state the test (or the demo) sets. It can also deliver and then
 * never answer (a crash window). Tests and the demo share it (docs/outside-services.md).
 *
 * Telegram Stars (docs/shop.md): createInvoiceLink (XTR only, refusing what Telegram refuses: a
 * title over 32 characters, a description over 255, a payload over 128 bytes, a provider token,
 * not exactly one price), `pay()` playing the payment sheet (a pre_checkout_query the bot must
 * answer within 10 s, then a successful_payment message, optionally delivered twice),
 * refundStarPayment (an unknown or refunded charge refused) and getStarTransactions (oldest first).
 * Updates go to the webhook when one is set on 127.0.0.1, redelivered until it answers 2xx as
 * Telegram does; to `transport` when a test sets one; else to getUpdates.
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
  /** Telegram cancels a payment whose pre_checkout_query is not answered within this (10 s). */
  preCheckoutDeadlineMs: number;
  /** How soon an update the webhook did not take (non-2xx, no answer) is delivered again. */
  redeliverMs: number;
  /**
   * getUpdates failing, the updates kept meanwhile: 'error' answers 502 at once; 'hang' holds each
   * call `updatesHangMs` and then answers 504, as a proxy in front of a hung Bot API does.
   */
  updatesOutage: 'error' | 'hang' | null;
  updatesHangMs: number;
}

/** An invoice made with createInvoiceLink. */
export interface FakeInvoice {
  slug: string;
  link: string;
  title: string;
  description: string;
  payload: string;
  amount: number;
}

/** A Star transaction as getStarTransactions lists it. */
export interface FakeStarTransaction {
  id: string;
  amount: number;
  date: number;
  source?: { type: 'user'; user: { id: number; is_bot: false; first_name: string }; invoice_payload: string };
  receiver?: { type: 'user'; user: { id: number; is_bot: false; first_name: string } };
}

/** Who pays in `pay()`. */
export interface FakePayer {
  id: number;
  language_code?: string;
}

export type FakePayment = { status: 'paid'; chargeId: string } | { status: 'failed'; reason: string };

/** Telegram's bounds on createInvoiceLink. */
export const invoiceLimits = { titleChars: 32, descriptionChars: 255, payloadBytes: 128 } as const;

/** What Telegram answers to a bad createInvoiceLink in Stars, or null when the call is good. */
export const invoiceRefusal = (p: Record<string, unknown>): string | null => {
  const title = typeof p.title === 'string' ? p.title : '';
  const description = typeof p.description === 'string' ? p.description : '';
  const payload = typeof p.payload === 'string' ? p.payload : '';
  if (title.length === 0 || [...title].length > invoiceLimits.titleChars) return 'Bad Request: INVOICE_TITLE_INVALID';
  if (description.length === 0 || [...description].length > invoiceLimits.descriptionChars) return 'Bad Request: INVOICE_DESCRIPTION_INVALID';
  if (payload.length === 0 || Buffer.byteLength(payload) > invoiceLimits.payloadBytes) return 'Bad Request: INVOICE_PAYLOAD_INVALID';
  if (p.currency !== 'XTR') return 'Bad Request: CURRENCY_INVALID';
  if (typeof p.provider_token === 'string' && p.provider_token !== '') return 'Bad Request: PAYMENT_PROVIDER_INVALID';
  const prices = jsonField(p.prices);
  if (!Array.isArray(prices) || prices.length !== 1) return 'Bad Request: STARS_INVOICE_INVALID';
  const price = prices[0] as { label?: unknown; amount?: unknown };
  if (typeof price.label !== 'string' || !price.label) return 'Bad Request: LABEL_INVALID';
  if (typeof price.amount !== 'number' || !Number.isSafeInteger(price.amount) || price.amount < 1 || price.amount > 10_000) return 'Bad Request: CURRENCY_TOTAL_AMOUNT_INVALID';
  return null;
};

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
  /** Invoices made with createInvoiceLink, by slug. */
  invoices: Map<string, FakeInvoice>;
  /** The bot's Star transactions, oldest first (payments and refunds). */
  starTransactions: FakeStarTransaction[];
  /** Set by a test to take every update (true: taken, as a 2xx webhook answer); else the webhook or getUpdates. */
  transport: ((update: Record<string, unknown>) => Promise<boolean>) | null;
  /** The invoice of a link (`https://t.me/$<slug>`), if it is one of ours. */
  invoiceOf(link: string): FakeInvoice | undefined;
  /**
   * Plays the payment sheet: the pre_checkout_query (waiting up to the 10 s deadline for the bot's
   * answer), then the charge and its successful_payment message, delivered `times` times (default 1).
   */
  pay(link: string, payer: FakePayer, opts?: { times?: number }): Promise<FakePayment>;
  /** Delivers the successful_payment of an earlier charge again (a Telegram redelivery). */
  redeliverPayment(chargeId: string): void;
  /** Updates not yet taken by the transport or webhook (being redelivered). */
  readonly undelivered: number;
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
    preCheckoutDeadlineMs: 10_000,
    redeliverMs: 100,
    updatesOutage: null,
    updatesHangMs: 1_000,
  };
  const invoices = new Map<string, FakeInvoice>();
  const starTransactions: FakeStarTransaction[] = [];
  const charges = new Map<string, { userId: number; amount: number; refunded: boolean; message: Record<string, unknown> }>();
  const queries = new Map<string, { answer: { ok: boolean; error_message?: string } | null; deadline: number }>();
  let nextCharge = 1;
  let closed = false;
  const pendingDeliveries = new Set<number>();
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
          if (settings.updatesOutage === 'error') return fail(502, 'Bad Gateway');
          if (settings.updatesOutage === 'hang') return { ...fail(504, 'Gateway Timeout'), delayMs: settings.updatesHangMs };
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
      case 'createInvoiceLink': {
        const refusal = invoiceRefusal(p);
        if (refusal) return fail(400, refusal);
        const slug = `${invoices.size + 1}${Math.random().toString(36).slice(2, 12)}`;
        const amount = (jsonField(p.prices) as { amount: number }[])[0]!.amount;
        const invoice: FakeInvoice = { slug, link: `https://t.me/$${slug}`, title: String(p.title), description: String(p.description), payload: String(p.payload), amount };
        invoices.set(slug, invoice);
        return ok(invoice.link);
      }
      case 'answerPreCheckoutQuery': {
        const q = queries.get(String(p.pre_checkout_query_id));
        const okAnswer = jsonField(p.ok) === true;
        if (q === undefined || q.answer !== null || Date.now() > q.deadline) return fail(400, 'Bad Request: query is too old and response timeout expired or query ID is invalid');
        if (!okAnswer && (typeof p.error_message !== 'string' || !p.error_message)) return fail(400, 'Bad Request: ERROR_MESSAGE_EMPTY');
        q.answer = okAnswer ? { ok: true } : { ok: false, error_message: String(p.error_message) };
        return ok(true);
      }
      case 'refundStarPayment': {
        const charge = charges.get(String(p.telegram_payment_charge_id));
        if (charge === undefined || charge.userId !== Number(p.user_id)) return fail(400, 'Bad Request: CHARGE_NOT_FOUND');
        if (charge.refunded) return fail(400, 'Bad Request: CHARGE_ALREADY_REFUNDED');
        charge.refunded = true;
        starTransactions.push({ id: String(p.telegram_payment_charge_id), amount: charge.amount, date: Math.floor(Date.now() / 1000), receiver: { type: 'user', user: { id: charge.userId, is_bot: false, first_name: `User${charge.userId}` } } });
        return ok(true);
      }
      case 'getStarTransactions': {
        const offset = Number(p.offset ?? 0);
        const limit = Number(p.limit ?? 100);
        if (!Number.isSafeInteger(offset) || offset < 0) return fail(400, 'Bad Request: offset is invalid');
        if (!Number.isSafeInteger(limit) || limit < 1 || limit > 100) return fail(400, 'Bad Request: limit is invalid');
        return ok({ transactions: starTransactions.slice(offset, offset + limit) });
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

  const hooksState = { transport: null as FakeTelegram['transport'] };
  // One delivery of an update: the test's transport, the webhook on 127.0.0.1, or getUpdates.
  const deliverOnce = async (update: Record<string, unknown>): Promise<boolean> => {
    if (hooksState.transport) return hooksState.transport(update).catch(() => false);
    const hook = hooks.webhook;
    if (hook && /^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(hook.url)) {
      try {
        const res = await fetch(hook.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(hook.secret_token ? { 'x-telegram-bot-api-secret-token': hook.secret_token } : {}) },
          body: JSON.stringify(update),
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer();
        return res.ok;
      } catch {
        return false;
      }
    }
    updates.push(update);
    return true;
  };
  // Telegram keeps delivering an update until it is taken.
  const deliver = (update: Record<string, unknown>): void => {
    const full = { update_id: nextUpdateId++, ...update };
    const id = full.update_id;
    pendingDeliveries.add(id);
    void (async () => {
      while (!closed && !(await deliverOnce(full))) await new Promise((r) => setTimeout(r, settings.redeliverMs));
      pendingDeliveries.delete(id);
    })();
  };
  const userOf = (payer: FakePayer) => ({ id: payer.id, is_bot: false as const, first_name: `User${payer.id}`, ...(payer.language_code ? { language_code: payer.language_code } : {}) });
  const pay = async (link: string, payer: FakePayer, opts: { times?: number } = {}): Promise<FakePayment> => {
    const invoice = invoices.get(link.replace(/^https:\/\/t\.me\/\$/, ''));
    if (invoice === undefined) return { status: 'failed', reason: 'invoice not found' };
    const queryId = `pcq${nextCharge}${Math.random().toString(36).slice(2, 10)}`;
    const query = { answer: null as { ok: boolean; error_message?: string } | null, deadline: Date.now() + settings.preCheckoutDeadlineMs };
    queries.set(queryId, query);
    deliver({ pre_checkout_query: { id: queryId, from: userOf(payer), currency: 'XTR', total_amount: invoice.amount, invoice_payload: invoice.payload } });
    while (query.answer === null && Date.now() <= query.deadline && !closed) await new Promise((r) => setTimeout(r, 20));
    if (query.answer === null) return { status: 'failed', reason: 'pre-checkout not answered in time' };
    if (!query.answer.ok) return { status: 'failed', reason: query.answer.error_message ?? '' };
    const chargeId = `stxFAKE${String(nextCharge++).padStart(6, '0')}${Math.random().toString(36).slice(2, 10)}`;
    const user = userOf(payer);
    starTransactions.push({ id: chargeId, amount: invoice.amount, date: Math.floor(Date.now() / 1000), source: { type: 'user', user: { id: user.id, is_bot: false, first_name: user.first_name }, invoice_payload: invoice.payload } });
    const message = {
      message_id: 1_000_000 + nextCharge,
      date: Math.floor(Date.now() / 1000),
      chat: { id: payer.id, type: 'private', first_name: user.first_name },
      from: user,
      successful_payment: { currency: 'XTR', total_amount: invoice.amount, invoice_payload: invoice.payload, telegram_payment_charge_id: chargeId, provider_payment_charge_id: '' },
    };
    charges.set(chargeId, { userId: payer.id, amount: invoice.amount, refunded: false, message });
    for (let i = 0; i < (opts.times ?? 1); i++) deliver({ message });
    return { status: 'paid', chargeId };
  };

  return {
    ...server,
    close: async () => {
      closed = true;
      await server.close();
    },
    invoices,
    starTransactions,
    get transport() {
      return hooksState.transport;
    },
    set transport(v) {
      hooksState.transport = v;
    },
    invoiceOf: (link) => invoices.get(link.replace(/^https:\/\/t\.me\/\$/, '')),
    pay,
    redeliverPayment: (chargeId) => {
      const c = charges.get(chargeId);
      if (c) deliver({ message: c.message });
    },
    get undelivered() {
      return pendingDeliveries.size;
    },
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
