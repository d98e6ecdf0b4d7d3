import { useLingui } from '@lingui/react';
import { useEffect } from 'react';
import { removeBootScreen } from '../../boot-screen.ts';
import { useRouteRetry } from '../../route-retry.tsx';
import { messageText } from '../messages.ts';

/**
 * The mini-app's error element (docs/mini-app.md "Lost files"): a screen whose chunk did not load
 * after every try, or that failed to render, says "Reconnecting…" in the player's language and
 * tries again by itself with the backoff, or at once on a tap; never React Router's own page.
 */
export const RouteError = () => {
  const { _ } = useLingui();
  const { retry } = useRouteRetry();
  // The early coin (src/boot-screen.ts) would cover this screen when it is the first one.
  useEffect(() => removeBootScreen(), []);
  return (
    <div className="route-error" role="alert" aria-live="polite">
      <span className="route-error__pulse" aria-hidden="true" />
      <h1 className="route-error__title">{messageText('reconnecting')}</h1>
      <p className="route-error__text">{_('app.routeError.body')}</p>
      <button type="button" className="btn" onClick={retry}>
        {_('app.routeError.retry')}
      </button>
    </div>
  );
};
