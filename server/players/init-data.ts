import { createHmac, timingSafeEqual } from 'node:crypto';
import { refusalMessage, type RefusalCode } from '../../engine/wire/refusals.ts';
import { cleanStrings, cleanText } from '../core/clean-text.ts';

/** The `user` field of Telegram init data (the fields we read). */
export interface TelegramUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
  is_premium?: boolean;
  photo_url?: string;
}

/** Init data after its signature and age were checked. */
export interface VerifiedInitData {
  user: TelegramUser;
  /** Seconds since the epoch. */
  authDate: number;
  startParam?: string;
}

export type InitDataFailure = 'missing' | 'malformed' | 'forged' | 'expired';

/** The check's verdict; a failure names its refusal (engine/wire/refusals.ts, the initData* codes). */
export type InitDataCheck = { ok: true; data: VerifiedInitData } | { ok: false; reason: InitDataFailure; code: RefusalCode; message: string };

/** secret = HMAC_SHA256(key "WebAppData", message BOT_TOKEN) (Telegram Mini Apps docs). */
export const initDataSecret = (botToken: string): Buffer => createHmac('sha256', 'WebAppData').update(botToken).digest();

/** The data-check-string: every field but `hash`, sorted by key, as key=value joined by \n. */
const dataCheckString = (params: URLSearchParams): string =>
  [...params.entries()]
    .filter(([k]) => k !== 'hash')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');

const fail = (reason: InitDataFailure, code: RefusalCode): InitDataCheck => ({ ok: false, reason, code, message: refusalMessage(code) });

// Telegram clocks and ours may differ a little; an auth_date further ahead than this is refused.
const futureSkewS = 300;

/** Reads the raw init data out of an Authorization header: the raw string, or `tma <raw>`. */
export const initDataFromHeader = (header: string | undefined): string | undefined => {
  if (header === undefined) return undefined;
  const trimmed = header.trim();
  if (trimmed === '') return undefined;
  return /^tma\s+/i.test(trimmed) ? trimmed.replace(/^tma\s+/i, '') : trimmed;
};

/**
 * Checks raw init data: the HMAC-SHA256 signature in constant time, auth_date no older than
 * maxAgeS, and a user with a whole-number id. Never throws.
 */
export const verifyInitData = (raw: string | undefined, secret: Buffer, nowMs: number, maxAgeS: number): InitDataCheck => {
  if (raw === undefined || raw === '') return fail('missing', 'initDataMissing');
  if (raw.length > 8_192) return fail('malformed', 'initDataTooLong');
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(raw);
  } catch {
    return fail('malformed', 'initDataNotQueryString');
  }
  const hash = params.get('hash');
  if (hash === null || !/^[0-9a-f]{64}$/i.test(hash)) return fail('malformed', 'initDataNoHash');
  const expected = createHmac('sha256', secret).update(dataCheckString(params)).digest();
  const given = Buffer.from(hash, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return fail('forged', 'initDataForged');

  const authDate = Number(params.get('auth_date'));
  if (!Number.isSafeInteger(authDate) || authDate <= 0) return fail('malformed', 'initDataNoAuthDate');
  const nowS = Math.floor(nowMs / 1_000);
  if (nowS - authDate > maxAgeS) return fail('expired', 'initDataExpired');
  if (authDate - nowS > futureSkewS) return fail('malformed', 'initDataFromFuture');

  let user: TelegramUser;
  try {
    // Signed is not storable: Telegram lets names hold NUL and cut emoji (server/core/clean-text.ts).
    user = cleanStrings(JSON.parse(params.get('user') ?? '')) as TelegramUser;
  } catch {
    return fail('malformed', 'initDataNoUser');
  }
  if (typeof user !== 'object' || user === null || !Number.isSafeInteger(user.id) || user.id <= 0)
    return fail('malformed', 'initDataNoUserId');
  if (typeof user.first_name !== 'string') user = { ...user, first_name: '' };
  const startParam = params.has('start_param') ? cleanText(params.get('start_param')!) : undefined;
  return { ok: true, data: { user, authDate, ...(startParam !== undefined ? { startParam } : {}) } };
};

/** Fields to sign: `user` may be an object (it is JSON-encoded); auth_date defaults to now. */
export interface InitDataFields {
  user: TelegramUser | string;
  auth_date?: number;
  [field: string]: unknown;
}

/**
 * Signs init data exactly as Telegram does, for tests and the development launch link.
 * Returns the raw query string (what `Authorization` carries).
 */
export const signInitData = (botToken: string, fields: InitDataFields, nowMs = Date.now()): string => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ auth_date: Math.floor(nowMs / 1_000), ...fields })) {
    if (v === undefined) continue;
    params.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  const hash = createHmac('sha256', initDataSecret(botToken)).update(dataCheckString(params)).digest('hex');
  params.set('hash', hash);
  return params.toString();
};
