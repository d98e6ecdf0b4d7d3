import { useRouteRetry } from '../route-retry.tsx';

/**
 * The console's error element (docs/admin.md): a page whose chunk did not load after every try,
 * or that failed to render, says "Reconnecting…" and tries again by itself with the backoff, or
 * at once on a click; never React Router's own page. The console is English only (docs/i18n.md).
 */
export const RouteError = () => {
  const { retry } = useRouteRetry();
  return (
    <section className="panel route-error" role="alert" aria-live="polite">
      <h2>Reconnecting…</h2>
      <p className="muted">Part of the console did not load. It is trying again by itself.</p>
      <button type="button" className="btn" onClick={retry}>Try again</button>
    </section>
  );
};
