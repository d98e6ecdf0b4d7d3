// The base styles first, so the pages' own files come after them in the cascade.
import './site.css';
import { I18nProvider } from '@lingui/react';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { activateLocale, i18n } from '../i18n/i18n.ts';
import { RetryingRouter } from '../route-retry.tsx';
import { isMiniAppPath, leaveForBot } from './bot-redirect.tsx';
import { siteRoutes } from './routes.tsx';
import { initialSiteLocale } from './site-locale.ts';

/**
 * Mounts the public site (spec §2, no init data). The site lives at the origin's root; a visit to
 * the mini-app's base (/app) or one of its paths without init data goes straight to the bot, before
 * anything renders. The page's language (docs/i18n.md) is chosen and its catalog loaded first, so
 * the first render is already in that language.
 */
export const mount = (root: HTMLElement, basename: string): void => {
  if (basename !== '' || isMiniAppPath(window.location.pathname)) {
    leaveForBot();
    return;
  }
  // A catalog chunk that fails to load falls back to English rather than leaving the page blank.
  void activateLocale(initialSiteLocale(), ['site'])
    .catch(() => activateLocale('en', ['site']))
    .catch((error: unknown) => console.error(error))
    .then(() => render(root));
};

const createRouter = () => createBrowserRouter(siteRoutes);

const render = (root: HTMLElement): void => {
  const reactRoot = createRoot(root);
  // A transition render yields every few ms, so the first paint is no single long task (TBT).
  startTransition(() =>
    reactRoot.render(
      <StrictMode>
        <I18nProvider i18n={i18n}>
          <RetryingRouter create={createRouter} />
        </I18nProvider>
      </StrictMode>,
    ),
  );
};
