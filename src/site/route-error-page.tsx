import { useLingui } from '@lingui/react';
import { useRouteRetry } from '../route-retry.tsx';

/**
 * The site's error element (docs/site.md): a page whose chunk did not load after every try, or
 * that failed to render, says "Reconnecting…" in the visitor's language and tries again by itself
 * with the backoff, or at once on a click; never React Router's own page.
 */
export const RouteErrorPage = () => {
  const { _ } = useLingui();
  const { retry } = useRouteRetry();
  return (
    <main id="main" className="page narrow not-found" role="alert" aria-live="polite">
      <h1>{_('site.routeError.title')}</h1>
      <p>{_('site.routeError.body')}</p>
      <button type="button" className="btn btn-primary" onClick={retry}>
        {_('site.routeError.retry')}
      </button>
    </main>
  );
};
