import { useLingui } from '@lingui/react';
import { useSignals } from '@preact/signals-react/runtime';
import { $online, $ready } from '../../engine-client/signals.ts';
import { messageText } from '../messages.ts';

/**
 * While the engine cannot reach the server (a 503 while the database is away, no network): one
 * calm line instead of an error per call (docs/mini-app.md "Reconnecting"). Taps keep counting;
 * the engine sends them when the server answers again, and the line goes away by itself.
 */
export const Reconnecting = () => {
  useSignals();
  useLingui();
  if (!$ready.value || $online.value) return null;
  return (
    <div className="reconnecting" role="status" aria-live="polite">
      {messageText('reconnecting')}
    </div>
  );
};
