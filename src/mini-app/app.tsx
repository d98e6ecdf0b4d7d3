import { I18nProvider } from '@lingui/react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { config } from '../config.ts';
import { startEngine } from '../engine-client/bridge.ts';
import { i18n } from '../i18n/i18n.ts';
import { initData, initTelegram } from '../telegram.ts';
import { createApiClient } from './api/client.ts';
import { activateTelegramLocale } from './locale.ts';
import { createQueryClient, Providers } from './providers.tsx';
import { routes } from './routes.tsx';
import './styles/base.css';

/**
 * Mounts the mini-app tree under `basename` ('/app'): Telegram first (ready, expand, theme), then
 * the engine's worker, then React. The route tree itself was chosen once by src/main.tsx. The
 * engine's status call, the app catalog of Telegram's language and the first screen's chunk start
 * together;
 * the shell switches to the player's chosen language, if any, when the status answers
 * (docs/i18n.md "The mini-app").
 */
export const mount = (root: HTMLElement, basename: string): void => {
  initTelegram();
  void activateTelegramLocale();
  const options = { apiBase: config.apiBase, initData: initData() };
  const api = createApiClient(options);
  const engine = startEngine(options);
  const router = createBrowserRouter(routes, { basename });
  createRoot(root).render(
    <I18nProvider i18n={i18n}>
      <Providers api={api} engine={engine} queryClient={createQueryClient()}>
        <RouterProvider router={router} />
      </Providers>
    </I18nProvider>,
  );
};
