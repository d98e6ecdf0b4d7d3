/**
 * The operator console (docs/admin.md): its own route tree under /admin, loaded by path from the
 * entry (src/main.tsx) and never part of the mini-app's or the site's initial JS. Each page is its
 * own chunk; the charts (uPlot) load with the dashboard only.
 */
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { adminRoutes } from './routes.tsx';
import { SessionProvider, useSession } from './session.tsx';
import { Shell } from './shell.tsx';
import { SignInPage } from './sign-in.tsx';
import './admin.css';

const Console = () => {
  const { session, checking } = useSession();
  if (checking) return <p className="boot">Checking your session…</p>;
  if (session === null) return <SignInPage />;
  return (
    <Shell>
      <Suspense fallback={<p className="muted">Loading…</p>}>
        <Routes>
          {adminRoutes.map((r) => (
            <Route key={r.path} path={r.path} element={<r.Page />} />
          ))}
          <Route path="*" element={<p>No such page.</p>} />
        </Routes>
      </Suspense>
    </Shell>
  );
};

export const AdminApp = () => (
  <SessionProvider>
    <Console />
  </SessionProvider>
);

export const mount = (root: HTMLElement): void => {
  document.title = 'MONEY console';
  createRoot(root).render(
    <StrictMode>
      <BrowserRouter basename="/admin">
        <AdminApp />
      </BrowserRouter>
    </StrictMode>,
  );
};
