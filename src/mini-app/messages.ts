import { frozenPlayerMessage } from '../../engine/wire/admin-types.ts';
import { economy } from '../../engine/rules/economy.ts';
import { messages, type MessageKey } from '../../engine/wire/messages.ts';
import { refusalCatalogId, type Refusal } from '../../engine/wire/refusals.ts';
import { $online, $ready } from '../engine-client/signals.ts';
import { i18n } from '../i18n/i18n.ts';
import { retryLoad } from '../retry-load.ts';
import { toasterReady } from './ui/toaster.tsx';

// §8's texts have one home in engine/wire/messages.ts, shared with the engine and the server; the
// player reads them in their language through the app catalog's `app.msg.<key>` (docs/i18n.md).
export { messages };

/** A §8 message in the active language. */
export const messageText = (key: MessageKey): string => i18n._(`app.msg.${key}`);

const keyOfText = new Map<string, MessageKey>(Object.entries(messages).map(([key, text]) => [text, key as MessageKey]));

/**
 * A text from the engine or the server in the active language: a §8 message (the engine and the
 * server speak English, word for word) or the frozen notice; any other server text as it came.
 */
export const localizeMessage = (text: string): string => {
  const key = keyOfText.get(text);
  if (key !== undefined) return messageText(key);
  return text === frozenPlayerMessage ? i18n._('app.frozen.message') : text;
};

/**
 * A server refusal in the active language: by its code (`app.refusal.<code>`, or the §8 message or
 * frozen notice it is), given the field it names; without a code, by its text (localizeMessage).
 * docs/i18n.md "Refusals".
 */
export const localizeRefusal = (refusal: Refusal): string =>
  refusal.code === undefined ? localizeMessage(refusal.message) : i18n._(refusalCatalogId(refusal.code), { field: refusal.field ?? '' });

export type MessageKind = 'success' | 'error' | 'info';

/**
 * §8: one toast at a time, for 2 s. A new message replaces the one on screen. `text` is a §8
 * message or a translated text, or a server refusal (translated by its code).
 */
export const notify = (text: string | Refusal, kind: MessageKind = 'info'): void => {
  // While the engine is reconnecting, the Reconnecting line already says what is wrong: failed
  // calls add no error toast of their own (docs/mini-app.md "Reconnecting"). The line shows only
  // once a status has arrived; before that (step 1 without user data, §2) the toast is the answer.
  if (kind === 'error' && $ready.peek() && !$online.peek()) return;
  const shown = typeof text === 'string' ? localizeMessage(text) : localizeRefusal(text);
  void Promise.all([retryLoad(() => import('sonner')), toasterReady]).then(([{ toast }]) => {
    toast.dismiss();
    const options = { duration: economy.toastDurationMs };
    if (kind === 'success') toast.success(shown, options);
    else if (kind === 'error') toast.error(shown, options);
    else toast(shown, options);
  });
};
