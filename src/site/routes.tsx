import type { RouteObject } from 'react-router-dom';
import { loadDomain } from '../i18n/i18n.ts';
import { BotRedirect, miniAppPaths } from './bot-redirect.tsx';
import { LandingPage } from './landing/landing-page.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { RouteErrorPage } from './route-error-page.tsx';
import { lazyRoute } from '../route-retry.tsx';
import { SiteShell } from './shell/site-shell.tsx';

/** A legal page's chunk together with the legal catalog in the active language (its own chunk too). */
const withLegalText = <T,>(page: () => Promise<T>) => async (): Promise<T> => (await Promise.all([page(), loadDomain('legal')]))[0];

const pages: RouteObject[] = [
  { index: true, element: <LandingPage /> },
  { path: 'policy', lazy: lazyRoute(withLegalText(() => import('./legal/policy-page.tsx')), (m) => m.PolicyPage, RouteErrorPage) },
  { path: 'terms', lazy: lazyRoute(withLegalText(() => import('./legal/terms-page.tsx')), (m) => m.TermsPage, RouteErrorPage) },
  // The airdrop's criteria and dates (docs/airdrop.md "Integrity review"): its own chunk.
  { path: 'airdrop', lazy: lazyRoute(() => import('./airdrop/airdrop-page.tsx'), (m) => m.AirdropPage, RouteErrorPage) },
  { path: '*', element: <NotFoundPage /> },
];

/**
 * The public route table (spec §2). The legal pages are their own chunks so the landing page
 * downloads none of their text; the mini-app-only paths leave for the bot. Each chunk is asked for
 * again with the backoff when it fails (src/retry-load.ts); a page that still cannot load shows
 * "Reconnecting…" under the shell (the header and footer stay), never React Router's own page.
 */
/**
 * What shows while a lazy page loads on the first visit (e.g. /terms opened directly): nothing, as
 * before, but named, so React Router has a fallback and logs no "No `HydrateFallback`" warning.
 */
const FirstLoad = () => null;

export const siteRoutes: RouteObject[] = [
  {
    element: <SiteShell />,
    HydrateFallback: FirstLoad,
    errorElement: <RouteErrorPage />,
    children: pages.map((page) => ({ ...page, errorElement: <RouteErrorPage /> })),
  },
  ...miniAppPaths.map((path): RouteObject => ({ path, element: <BotRedirect />, errorElement: <RouteErrorPage /> })),
  { path: '/app/*', element: <BotRedirect />, errorElement: <RouteErrorPage /> },
];
