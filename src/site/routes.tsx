import type { RouteObject } from 'react-router-dom';
import { loadDomain } from '../i18n/i18n.ts';
import { BotRedirect, miniAppPaths } from './bot-redirect.tsx';
import { LandingPage } from './landing/landing-page.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { SiteShell } from './shell/site-shell.tsx';

/** A legal page's chunk together with the legal catalog in the active language (its own chunk too). */
const withLegalText = async <T,>(page: Promise<T>): Promise<T> => (await Promise.all([page, loadDomain('legal')]))[0];

/**
 * The public route table (spec §2). The legal pages are their own chunks so the landing page
 * downloads none of their text; the mini-app-only paths leave for the bot.
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
    children: [
      { index: true, element: <LandingPage /> },
      { path: 'policy', lazy: async () => ({ Component: (await withLegalText(import('./legal/policy-page.tsx'))).PolicyPage }) },
      { path: 'terms', lazy: async () => ({ Component: (await withLegalText(import('./legal/terms-page.tsx'))).TermsPage }) },
      // The airdrop's criteria and dates (docs/airdrop.md "Integrity review"): its own chunk.
      { path: 'airdrop', lazy: async () => ({ Component: (await import('./airdrop/airdrop-page.tsx')).AirdropPage }) },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  ...miniAppPaths.map((path): RouteObject => ({ path, element: <BotRedirect /> })),
  { path: '/app/*', element: <BotRedirect /> },
];
