import { createRoot } from 'react-dom/client';
import { config } from '../config.ts';
import { startEngine } from '../engine-client/bridge.ts';
import { initData, initTelegram } from '../telegram.ts';
import { activateTelegramLocale } from './locale.ts';
import { BootScreen } from './shell/boot-screen.tsx';
import './styles/base.css';

/**
 * Mounts the mini-app tree under `basename` ('/app'): Telegram first (ready, expand, theme), then
 * the engine's worker, then React. The route tree itself was chosen once by src/main.tsx. The
 * boot screen paints at once; the engine's status call, the app catalog of Telegram's language
 * and the rest of the app (router, React Query, the first screen's chunk: app-root.tsx) load
 * together behind it. The shell switches to the player's chosen language, if any, when the
 * status answers (docs/i18n.md "The mini-app").
 */
export const mount = (root: HTMLElement, basename: string): void => {
  initTelegram();
  const locale = activateTelegramLocale();
  const api = { apiBase: config.apiBase, initData: initData() };
  const engine = startEngine(api);
  const reactRoot = createRoot(root);
  reactRoot.render(<BootScreen />);
  // The tree renders once Telegram's language is active, or failed to load (the shell then waits as before).
  void Promise.all([import('./app-root.tsx'), locale.catch(() => undefined)]).then(([{ renderApp }]) => renderApp(reactRoot, { api, engine, basename }));
};
