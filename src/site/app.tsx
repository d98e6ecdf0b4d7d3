// The base styles first, so the pages' own files come after them in the cascade.
import './site.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { isMiniAppPath, leaveForBot } from './bot-redirect.tsx';
import { siteRoutes } from './routes.tsx';

/**
 * Mounts the public site (spec §2, no init data). The site lives at the origin's root; a visit to
 * the mini-app's base (/app) or one of its paths without init data goes straight to the bot, before
 * anything renders.
 */
export const mount = (root: HTMLElement, basename: string): void => {
  if (basename !== '' || isMiniAppPath(window.location.pathname)) {
    leaveForBot();
    return;
  }
  const router = createBrowserRouter(siteRoutes);
  const reactRoot = createRoot(root);
  // A transition render yields every few ms, so the first paint is no single long task (TBT).
  startTransition(() =>
    reactRoot.render(
      <StrictMode>
        <RouterProvider router={router} />
      </StrictMode>,
    ),
  );
};
