/**
 * The operator console (docs/admin.md): its own route tree under /admin, loaded by path from the
 * entry (src/main.tsx) and never part of the mini-app's or the site's initial JS. Each page is its
 * own chunk; the charts (uPlot) load with the dashboard only. It uses the same router API as the
 * other trees (createBrowserRouter), so the shared router chunk does not grow for them.
 */
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router-dom';
import { RetryingRouter } from '../route-retry.tsx';
import { RouteError } from './route-error.tsx';
import { adminRoutes } from './routes.tsx';
import { SessionProvider, useSession } from './session.tsx';
import { Shell } from './shell.tsx';
import { SignInPage } from './sign-in.tsx';
import './admin.css';

/** Every page: the sign-in page until there is a session, then the page in the shell. */
const ConsoleLayout = () => {
  const { session, checking } = useSession();
  if (checking) return <p className="boot">Checking your session…</p>;
  if (session === null) return <SignInPage />;
  return (
    <Shell>
      <Suspense fallback={<p className="muted">Loading…</p>}>
        <Outlet />
      </Suspense>
    </Shell>
  );
};

/** The console's route objects (tests mount them in a memory router). */
export const consoleRoutes: RouteObject[] = [
  {
    element: <ConsoleLayout />,
    errorElement: <RouteError />,
    // A page that fails shows "Reconnecting…" in the shell, the nav beside it.
    children: [...adminRoutes.map((r) => ({ path: r.path, element: <r.Page />, errorElement: <RouteError /> })), { path: '*', element: <p>No such page.</p> }],
  },
];

/** The console with the router `create` makes (made again when a failed page tries again). */
export const AdminApp = ({ create }: { create: () => ReturnType<typeof createBrowserRouter> }) => (
  <SessionProvider>
    <RetryingRouter create={create} />
  </SessionProvider>
);

const createRouter = () => createBrowserRouter(consoleRoutes, { basename: '/admin' });

export const mount = (root: HTMLElement): void => {
  document.title = 'MONEY console';
  createRoot(root).render(
    <StrictMode>
      <AdminApp create={createRouter} />
    </StrictMode>,
  );
};
