/**
 * What the integer columns of the migrations can hold, so an id, cursor or count is checked
 * before a query and never reaches PostgreSQL out of range (a 22003 would be a 500). The edge's
 * schemas (server/routes/validation.ts) are built from these; a feature that reads an id out of
 * free text (the console's search) checks it with the same functions.
 */

/** INTEGER (tasks.id, airdrop_rounds.round): 1..2^31−1 as an id. */
export const integerMax = 2_147_483_647;

/** BIGINT (ledger.id, admin_audit.id, broadcasts.id, the *_ms columns): up to 2^63−1. */
export const bigintMax = 9_223_372_036_854_775_807n;

/**
 * A Telegram user id (users.id and every *_user_id, BIGINT): Telegram's have at most 52
 * significant bits, and the app carries them as exact JS numbers (init data refuses any other,
 * server/players/init-data.ts), so 1..2^53−1.
 */
export const telegramUserIdMax = Number.MAX_SAFE_INTEGER;

// Decimal digits with no sign, no leading zero and at most 19 digits (BIGINT's width).
const digits = /^(0|[1-9][0-9]{0,18})$/;

/** `text` is the decimal form of a BIGINT from `min` (1 unless given) to 2^63−1. */
export const isBigintText = (text: string, min = 1n): boolean => digits.test(text) && BigInt(text) >= min && BigInt(text) <= bigintMax;

/** `text` is the decimal form of a Telegram user id (1..2^53−1). */
export const isTelegramUserIdText = (text: string): boolean => digits.test(text) && BigInt(text) >= 1n && BigInt(text) <= BigInt(telegramUserIdMax);

/**
 * A keyset cursor `<ms>:<id>` of two BIGINTs (the console's referral pages: created_at_ms, then
 * friend_id), parsed strictly: both parts present, decimal, in range. Null when it is not one.
 */
export const parseMsIdCursor = (text: string): { ms: string; id: string } | null => {
  const parts = text.split(':');
  if (parts.length !== 2) return null;
  const [ms, id] = parts as [string, string];
  return isBigintText(ms, 0n) && isBigintText(id) ? { ms, id } : null;
};
