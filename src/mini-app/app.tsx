import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { config } from '../config.ts';
import { startEngine } from '../engine-client/bridge.ts';
import { initData, initTelegram } from '../telegram.ts';
import { createApiClient } from './api/client.ts';
import { createQueryClient, Providers } from './providers.tsx';
import { routes } from './routes.tsx';
import './styles/base.css';

/**
 * Mounts the mini-app tree under `basename` ('/app'): Telegram first (ready, expand, theme), then
 * the engine's worker, then React. The route tree itself was chosen once by src/main.tsx.
 */
export const mount = (root: HTMLElement, basename: string): void => {
  initTelegram();
  const options = { apiBase: config.apiBase, initData: initData() };
  const api = createApiClient(options);
  const engine = startEngine(options);
  const router = createBrowserRouter(routes, { basename });
  createRoot(root).render(
    <Providers api={api} engine={engine} queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </Providers>,
  );
};
