/**
 * Telegram Login Widget data, checked as Telegram documents it (core.telegram.org/widgets/login,
 * "Checking authorization"): the data-check-string is every received field but `hash`, sorted by
 * key, as key=value joined by \n; hash = hex HMAC-SHA256(data-check-string, key SHA256(bot token)).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export type WidgetCheck = { ok: true; userId: number; name: string } | { ok: false; message: string };

const fieldPattern = /^[a-z_]{1,32}$/;

/** Checks the widget's fields (as the browser got them) at nowMs; never throws. */
export const verifyLoginWidget = (fields: Record<string, unknown>, botToken: string, nowMs: number, maxAgeS: number): WidgetCheck => {
  const hash = fields.hash;
  if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) return { ok: false, message: 'hash is missing or malformed' };
  const entries: [string, string][] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (k === 'hash' || v === undefined || v === null) continue;
    if (!fieldPattern.test(k) || (typeof v !== 'string' && typeof v !== 'number') || String(v).length > 512) return { ok: false, message: `field ${k} is malformed` };
    entries.push([k, String(v)]);
  }
  const check = entries
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
  const secret = createHash('sha256').update(botToken).digest();
  const expected = createHmac('sha256', secret).update(check).digest();
  if (!timingSafeEqual(expected, Buffer.from(hash, 'hex'))) return { ok: false, message: 'Telegram signature does not match' };
  const authDate = Number(fields.auth_date);
  if (!Number.isInteger(authDate)) return { ok: false, message: 'auth_date is missing' };
  const ageS = Math.floor(nowMs / 1_000) - authDate;
  if (ageS > maxAgeS || ageS < -300) return { ok: false, message: 'Sign-in data has expired: sign in again' };
  const userId = Number(fields.id);
  if (!Number.isSafeInteger(userId) || userId <= 0) return { ok: false, message: 'id is malformed' };
  const name = [fields.first_name, fields.last_name].filter((s) => typeof s === 'string' && s !== '').join(' ');
  return { ok: true, userId, name: typeof fields.username === 'string' ? `@${fields.username}` : name };
};

/** Signs widget fields as Telegram would (tests and the development sign-in). */
export const signLoginWidget = (botToken: string, fields: Record<string, string | number>): Record<string, string | number> => {
  const check = Object.entries(fields)
    .map(([k, v]) => [k, String(v)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
  const secret = createHash('sha256').update(botToken).digest();
  return { ...fields, hash: createHmac('sha256', secret).update(check).digest('hex') };
};
