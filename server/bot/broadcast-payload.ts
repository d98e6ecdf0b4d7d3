/**
 * The body of `POST /public/send-telemss`: `{ message, btns: [{ btnType, btnText, btnLink }] }`,
 * checked field by field, and turned into a Telegram inline keyboard (one button per row).
 */
import type { SendMessageButton } from '../../engine/api-types.ts';

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

export type BroadcastParse = { ok: true; broadcast: Broadcast } | { ok: false; field: string; message: string };

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
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { ok: false, field: 'message', message: 'message is required' };
  const { message, btns } = body as { message?: unknown; btns?: unknown };
  if (typeof message !== 'string' || message.trim() === '') return { ok: false, field: 'message', message: 'message is required' };
  if (message.length > maxMessageLength) return { ok: false, field: 'message', message: `message is longer than ${maxMessageLength} characters` };
  if (hasNul(message)) return { ok: false, field: 'message', message: 'message must not contain NUL characters' };
  if (btns !== undefined && !Array.isArray(btns)) return { ok: false, field: 'btns', message: 'btns must be a list' };
  const list = (btns ?? []) as unknown[];
  if (list.length > maxButtons) return { ok: false, field: 'btns', message: `at most ${maxButtons} buttons` };
  const buttons: InlineButton[] = [];
  for (const [i, raw] of list.entries()) {
    const b = (raw ?? {}) as Partial<Record<keyof SendMessageButton, unknown>>;
    const kind = typeof b.btnType === 'string' ? b.btnType.toLowerCase() : '';
    if (kind !== 'url' && kind !== 'web_app') return { ok: false, field: `btns[${i}].btnType`, message: 'btnType must be url or web_app' };
    if (typeof b.btnText !== 'string' || b.btnText.trim() === '' || b.btnText.length > maxButtonTextLength || hasNul(b.btnText)) {
      return { ok: false, field: `btns[${i}].btnText`, message: `btnText must be 1–${maxButtonTextLength} characters` };
    }
    if (typeof b.btnLink !== 'string' || hasNul(b.btnLink) || !isLink(b.btnLink, kind === 'web_app')) {
      return { ok: false, field: `btns[${i}].btnLink`, message: kind === 'web_app' ? 'btnLink must be an https URL' : 'btnLink must be an https, http or tg URL' };
    }
    buttons.push(kind === 'url' ? { text: b.btnText, url: b.btnLink } : { text: b.btnText, web_app: { url: b.btnLink } });
  }
  return { ok: true, broadcast: { message, buttons } };
};

/** The reply_markup for sendMessage, or undefined without buttons. */
export const inlineKeyboard = (buttons: readonly InlineButton[]) =>
  buttons.length ? { inline_keyboard: buttons.map((b) => [b]) } : undefined;
