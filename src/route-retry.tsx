import { createContext, createElement, lazy, useCallback, useContext, useEffect, useMemo, useRef, useState, type ComponentType } from 'react';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import { retryDelayMs } from '../engine/client/retry.ts';
import { retryLoad } from './retry-load.ts';

/**
 * "Reconnecting…" for every route tree (docs/mini-app.md "Lost files"). A route whose chunk failed
 * every try (src/retry-load.ts) shows its tree's error element instead of React Router's default
 * page; that element tries again by itself with the one backoff (engine/client/retry.ts) and on a tap.
 * React Router keeps a route's `lazy()` result for the router's life, so trying again makes the
 * router anew on the same address: the files that did load come from the browser's cache, and the
 * state above the router (the engine, the session) stays as it was.
 */
type Router = ReturnType<typeof createBrowserRouter>;

interface RouteRetry {
  /** Tries since the player last moved to another page without a failure (0: the first). */
  attempt: number;
  retry(): void;
}

// Outside a RetryingRouter (a test's memory router) there is no automatic try; a tap reloads.
const RouteRetryContext = createContext<RouteRetry | null>(null);

/** `RouterProvider` for a router that `create` can make again when its error element asks. */
export function RetryingRouter({ create }: { create: () => Router }) {
  const [state, setState] = useState(() => ({ router: create(), attempt: 0 }));
  const current = useRef(state);
  current.current = state;
  const retry = useCallback(() => {
    const { router, attempt } = current.current;
    router.dispose();
    setState({ router: create(), attempt: attempt + 1 });
  }, [create]);
  // Moving to another page without a failure starts the backoff from its first delay again.
  useEffect(() => {
    const { router } = state;
    const startKey = router.state.location.key;
    return router.subscribe((s) => {
      if (s.errors !== null || s.navigation.state !== 'idle' || s.location.key === startKey) return;
      setState((now) => (now.router === router && now.attempt > 0 ? { ...now, attempt: 0 } : now));
    });
  }, [state]);
  const value = useMemo(() => ({ attempt: state.attempt, retry }), [state.attempt, retry]);
  return (
    <RouteRetryContext.Provider value={value}>
      <RouterProvider router={state.router} />
    </RouteRetryContext.Provider>
  );
}

/** For an error element: tries again after the backoff by itself; `retry` tries now. */
export function useRouteRetry(): { retry(): void } {
  const context = useContext(RouteRetryContext);
  useEffect(() => {
    if (!context) return;
    const timer = setTimeout(context.retry, retryDelayMs(context.attempt));
    return () => clearTimeout(timer);
  }, [context]);
  return { retry: context?.retry ?? (() => window.location.reload()) };
}

/**
 * A route's `lazy`: its chunk is asked for with the backoff (src/retry-load.ts), and when every try
 * failed the route shows `Failed`, its tree's "Reconnecting…". A `lazy()` that rejects is no
 * answer: React Router keeps treating that route as loading and renders nothing in its place.
 */
export function lazyRoute<T>(load: () => Promise<T>, pick: (module: T) => ComponentType, Failed: ComponentType) {
  return async (): Promise<{ Component: ComponentType }> => ({ Component: await retryLoad(load).then(pick, () => Failed) });
}

/**
 * `React.lazy` for a chunk outside the route table (a popup, the toaster, a console page): asked
 * for with the backoff (src/retry-load.ts); when every try failed, the error reaches the route's
 * error element, and the next render (its retry) asks for the chunk again, where React.lazy alone
 * would keep the failure for the page's life.
 */
export function retryingLazy<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
  const make = () =>
    lazy(() =>
      retryLoad(load).catch((error: unknown) => {
        current = make();
        throw error;
      }),
    );
  let current = make();
  return function RetryingLazy(props: P) {
    return createElement(current, props);
  };
}
