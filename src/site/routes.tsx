import type { RouteObject } from 'react-router-dom';
import { BotRedirect, miniAppPaths } from './bot-redirect.tsx';
import { LandingPage } from './landing/landing-page.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { SiteShell } from './shell/site-shell.tsx';

/**
 * The public route table (spec §2). The legal pages are their own chunks so the landing page
 * downloads none of their text; the mini-app-only paths leave for the bot.
 */
export const siteRoutes: RouteObject[] = [
  {
    element: <SiteShell />,
    children: [
      { index: true, element: <LandingPage /> },
      { path: 'policy', lazy: async () => ({ Component: (await import('./legal/policy-page.tsx')).PolicyPage }) },
      { path: 'terms', lazy: async () => ({ Component: (await import('./legal/terms-page.tsx')).TermsPage }) },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  ...miniAppPaths.map((path): RouteObject => ({ path, element: <BotRedirect /> })),
  { path: '/app/*', element: <BotRedirect /> },
];
