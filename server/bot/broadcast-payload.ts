/**
 * The body of `POST /public/send-telemss`: `{ message, btns: [{ btnType, btnText, btnLink }] }`,
 * checked field by field, and turned into a Telegram inline keyboard (one button per row).
 */
import type { SendMessageButton } from '../../engine/wire/api-types.ts';
import type { RefusalCode, RefusalValues } from '../../engine/wire/refusals.ts';
import { refuse, type Refusal } from '../core/errors.ts';

/** Telegram's limits: 4096 characters of text, 64 of button text (docs/outside-services.md). */
export const maxMessageLength = 4096;
export const maxButtonTextLength = 64;
export const maxButtons = 10;

/** `url` opens a link; `web_app` opens a mini-app page (https only). Case-insensitive. */
export type ButtonKind = 'url' | 'web_app';

export type InlineButton = { text: string; url: string } | { text: string; web_app: { url: string } };

export interface Broadcast {
  message: string;
  buttons: InlineButton[];
}

/** The verdict; a failure is the refusal naming the first bad field. */
export type BroadcastParse = { ok: true; broadcast: Broadcast } | { ok: false; refusal: Refusal };

const fail = (field: string, code: RefusalCode, values?: RefusalValues): BroadcastParse => ({ ok: false, refusal: refuse(code, { field, ...(values !== undefined ? { values } : {}) }) });

/** PostgreSQL text and jsonb cannot store U+0000; such a body would fail at the INSERT (a 500). */
const hasNul = (s: string): boolean => s.includes('\u0000');

const isLink = (s: string, httpsOnly: boolean): boolean => {
  try {
    const u = new URL(s);
    return httpsOnly ? u.protocol === 'https:' : ['https:', 'http:', 'tg:'].includes(u.protocol);
  } catch {
    return false;
  }
};

export const parseBroadcast = (body: unknown): BroadcastParse => {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return fail('message', 'broadcastMessageRequired');
  const { message, btns } = body as { message?: unknown; btns?: unknown };
  if (typeof message !== 'string' || message.trim() === '') return fail('message', 'broadcastMessageRequired');
  if (message.length > maxMessageLength) return fail('message', 'broadcastMessageTooLong', { max: maxMessageLength });
  if (hasNul(message)) return fail('message', 'broadcastMessageNul');
  if (btns !== undefined && !Array.isArray(btns)) return fail('btns', 'broadcastButtonsNotList');
  const list = (btns ?? []) as unknown[];
  if (list.length > maxButtons) return fail('btns', 'broadcastTooManyButtons', { max: maxButtons });
  const buttons: InlineButton[] = [];
  for (const [i, raw] of list.entries()) {
    const b = (raw ?? {}) as Partial<Record<keyof SendMessageButton, unknown>>;
    const kind = typeof b.btnType === 'string' ? b.btnType.toLowerCase() : '';
    if (kind !== 'url' && kind !== 'web_app') return fail(`btns[${i}].btnType`, 'broadcastButtonType');
    if (typeof b.btnText !== 'string' || b.btnText.trim() === '' || b.btnText.length > maxButtonTextLength || hasNul(b.btnText)) {
      return fail(`btns[${i}].btnText`, 'broadcastButtonText', { max: maxButtonTextLength });
    }
    if (typeof b.btnLink !== 'string' || hasNul(b.btnLink) || !isLink(b.btnLink, kind === 'web_app')) {
      return fail(`btns[${i}].btnLink`, kind === 'web_app' ? 'broadcastWebAppLink' : 'broadcastButtonLink');
    }
    buttons.push(kind === 'url' ? { text: b.btnText, url: b.btnLink } : { text: b.btnText, web_app: { url: b.btnLink } });
  }
  return { ok: true, broadcast: { message, buttons } };
};

/** The reply_markup for sendMessage, or undefined without buttons. */
export const inlineKeyboard = (buttons: readonly InlineButton[]) =>
  buttons.length ? { inline_keyboard: buttons.map((b) => [b]) } : undefined;
