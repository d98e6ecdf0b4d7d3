import { createRoot } from 'react-dom/client';
import { config } from '../config.ts';
import { startEngine } from '../engine-client/bridge.ts';
import { retryLoad } from '../retry-load.ts';
import { initData, initTelegram } from '../telegram.ts';
import { activateTelegramLocale } from './locale.ts';
import { BootScreen } from './shell/boot-screen.tsx';
import './styles/base.css';

/** Resolves in a task of its own: what follows does not lengthen the task that awaited it. */
const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Mounts the mini-app tree under `basename` ('/app'): the theme from the launch URL, then the
 * engine's worker, then React (Telegram's script comes after the first screen, src/telegram.ts).
 * The route tree itself was chosen once by src/main.tsx. The boot screen is on the page already;
 * the engine's status call, the app catalog of Telegram's language and the rest of the app
 * (router, React Query: app-root.tsx, then the first screen's chunk) load together behind it,
 * each asked for in a task of its own, so no single task of the start blocks the main thread for
 * long on a cheap phone (docs/mini-app.md "First paint"). The shell switches to the player's
 * chosen language, if any, when the status answers (docs/i18n.md "The mini-app").
 */
export const mount = (root: HTMLElement, basename: string): void => {
  initTelegram();
  const locale = activateTelegramLocale();
  const api = { apiBase: config.apiBase, initData: initData() };
  const engine = startEngine(api);
  const reactRoot = createRoot(root);
  reactRoot.render(<BootScreen />);
  // The rest of the app is asked for until it comes (docs/mini-app.md "Lost files"): the boot coin
  // stays meanwhile, and no later screen can show "Reconnecting…" without it.
  const appRoot = nextTask().then(() => retryLoad(() => import('./app-root.tsx'), Infinity));
  // Home's chunk is the index route's (the router asks for it at once, onboarding or not): asked
  // for here, its preloads are not added inside the router's start. A failure here is the route's
  // to retry.
  void appRoot.then(nextTask).then(() => retryLoad(() => import('./home/home-screen.tsx'))).catch(() => undefined);
  // The tree renders once Telegram's language is active, or failed to load (the shell then waits as before).
  void Promise.all([appRoot, locale.catch(() => undefined)])
    .then(async (loaded) => (await nextTask(), loaded))
    .then(([{ renderApp }]) => renderApp(reactRoot, { api, engine, basename }));
};
