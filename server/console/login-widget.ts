/**
 * Telegram Login Widget data, checked as Telegram documents it (core.telegram.org/widgets/login,
 * "Checking authorization"): the data-check-string is every received field but `hash`, sorted by
 * key, as key=value joined by \n; hash = hex HMAC-SHA256(data-check-string, key SHA256(bot token)).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { RefusalCode, RefusalValues } from '../../engine/wire/refusals.ts';
import { refuse, type Refusal } from '../core/errors.ts';

/** The verdict; a failure is the refusal to answer (a 401 at the edge). */
export type WidgetCheck = { ok: true; userId: number; name: string } | { ok: false; refusal: Refusal };

const fail = (code: RefusalCode, values?: RefusalValues): WidgetCheck => ({ ok: false, refusal: refuse(code, values === undefined ? {} : { values }) });

const fieldPattern = /^[a-z_]{1,32}$/;

/** Checks the widget's fields (as the browser got them) at nowMs; never throws. */
export const verifyLoginWidget = (fields: Record<string, unknown>, botToken: string, nowMs: number, maxAgeS: number): WidgetCheck => {
  const hash = fields.hash;
  if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) return fail('widgetHashMalformed');
  const entries: [string, string][] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (k === 'hash' || v === undefined || v === null) continue;
    if (!fieldPattern.test(k) || (typeof v !== 'string' && typeof v !== 'number') || String(v).length > 512) return fail('widgetFieldMalformed', { key: k });
    entries.push([k, String(v)]);
  }
  const check = entries
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
  const secret = createHash('sha256').update(botToken).digest();
  const expected = createHmac('sha256', secret).update(check).digest();
  if (!timingSafeEqual(expected, Buffer.from(hash, 'hex'))) return fail('widgetSignatureMismatch');
  const authDate = Number(fields.auth_date);
  if (!Number.isInteger(authDate)) return fail('widgetNoAuthDate');
  const ageS = Math.floor(nowMs / 1_000) - authDate;
  if (ageS > maxAgeS || ageS < -300) return fail('widgetExpired');
  const userId = Number(fields.id);
  if (!Number.isSafeInteger(userId) || userId <= 0) return fail('widgetIdMalformed');
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
