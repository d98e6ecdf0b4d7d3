import { economy } from '../../engine/economy.ts';
import { messages } from '../../engine/messages.ts';
import { $online } from '../engine-client/signals.ts';
import { toasterReady } from './ui/toaster.tsx';

// §8's texts have one home in engine/messages.ts, shared with the engine and the server.
export { messages };

export type MessageKind = 'success' | 'error' | 'info';

/** §8: one toast at a time, for 2 s. A new message replaces the one on screen. */
export const notify = (text: string, kind: MessageKind = 'info'): void => {
  // While the engine is reconnecting, the Reconnecting line already says what is wrong: failed
  // calls add no error toast of their own (docs/mini-app.md "Reconnecting").
  if (kind === 'error' && !$online.peek()) return;
  void Promise.all([import('sonner'), toasterReady]).then(([{ toast }]) => {
    toast.dismiss();
    const options = { duration: economy.toastDurationMs };
    if (kind === 'success') toast.success(text, options);
    else if (kind === 'error') toast.error(text, options);
    else toast(text, options);
  });
};
