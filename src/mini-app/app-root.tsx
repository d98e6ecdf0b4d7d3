import { I18nProvider } from '@lingui/react';
import { startTransition } from 'react';
import type { Root } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import type { EngineActions } from '../../engine/client/snapshot.ts';
import { i18n } from '../i18n/i18n.ts';
import { RetryingRouter } from '../route-retry.tsx';
import { createApiClient, type ApiClientOptions } from './api/client.ts';
import { createQueryClient, Providers } from './providers.tsx';
import { routes } from './routes.tsx';

/**
 * Everything after the first paint: the API client, React Query, the router and its route table.
 * app.tsx paints the boot screen first and loads this chunk while the engine's status call is in
 * flight, so neither the router nor React Query weighs on the initial JS (docs/mini-app.md budget).
 */
export const renderApp = (root: Root, { api, engine, basename }: { api: ApiClientOptions; engine: EngineActions; basename: string }): void => {
  const createRouter = () => createBrowserRouter(routes, { basename });
  // A transition: React renders the tree in slices and yields between them, so a cheap phone's
  // main thread is never blocked for the whole tree at once (the boot screen stays meanwhile).
  startTransition(() => root.render(
    <I18nProvider i18n={i18n}>
      <Providers api={createApiClient(api)} engine={engine} queryClient={createQueryClient()}>
        <RetryingRouter create={createRouter} />
      </Providers>
    </I18nProvider>,
  ));
};
