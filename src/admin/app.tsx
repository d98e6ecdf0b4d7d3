/**
 * The operator console (docs/admin.md): its own route tree under /admin, loaded by path from the
 * entry (src/main.tsx) and never part of the mini-app's or the site's initial JS. Each page is its
 * own chunk; the charts (uPlot) load with the dashboard only. It uses the same router API as the
 * other trees (createBrowserRouter), so the shared router chunk does not grow for them.
 */
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Outlet, RouterProvider, type RouteObject } from 'react-router-dom';
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
    children: [...adminRoutes.map((r) => ({ path: r.path, element: <r.Page /> })), { path: '*', element: <p>No such page.</p> }],
  },
];

export const AdminApp = ({ router }: { router: Parameters<typeof RouterProvider>[0]['router'] }) => (
  <SessionProvider>
    <RouterProvider router={router} />
  </SessionProvider>
);

export const mount = (root: HTMLElement): void => {
  document.title = 'MONEY console';
  createRoot(root).render(
    <StrictMode>
      <AdminApp router={createBrowserRouter(consoleRoutes, { basename: '/admin' })} />
    </StrictMode>,
  );
};
