import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import type { GameActions } from '../../engine/snapshot.ts';
import { config } from '../config.ts';
import { initData, initTelegram } from '../telegram.ts';
import { createApiClient } from './api/client.ts';
import { createQueryClient, Providers } from './providers.tsx';
import { routes } from './routes.tsx';
import './styles/base.css';

type Bridge = { startGame(options: { apiBase: string; initData: string }): GameActions };
// The bridge lands in parallel (issue 3); until then the app still renders, with no engine.
const bridge = Object.values(import.meta.glob<Bridge>('../game/bridge.ts', { eager: true }))[0];
const noEngine: GameActions = {
  tap: () => 0,
  upgrade: async () => ({ ok: false, message: '' }),
  claim: async () => ({ ok: false, message: '' }),
  refresh: async () => undefined,
};

/** Mounts the mini-app tree under `basename` ('/app'): Telegram first, then the engine, then React. */
export const mount = (root: HTMLElement, basename: string): void => {
  initTelegram();
  const options = { apiBase: config.apiBase, initData: initData() };
  const api = createApiClient(options);
  const game: GameActions = bridge ? bridge.startGame(options) : noEngine;
  const router = createBrowserRouter(routes, { basename });
  createRoot(root).render(
    <Providers api={api} game={game} queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </Providers>,
  );
};
