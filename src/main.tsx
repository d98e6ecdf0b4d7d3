import { paintBootScreen } from './boot-screen.ts';
import { retryFailedFiles, retryLoad } from './retry-load.ts';

/**
 * The entry: decides once at load which route tree applies (spec §2). With Telegram init data the
 * mini-app loads; without it the public site does. Each tree is its own chunk, so the public site
 * never downloads the mini-app's code.
 */
const telegramLaunchKeys = ['tgWebAppData'];

/** True when the page was opened by Telegram with init data (hash on first load, session storage after). */
export const hasInitData = (): boolean => {
  const hash = new URLSearchParams(window.location.hash.slice(1));
  if (telegramLaunchKeys.some((k) => hash.get(k))) return true;
  try {
    const saved = sessionStorage.getItem('__telegram__initParams');
    return saved !== null && saved.includes('tgWebAppData');
  } catch {
    return false;
  }
};

/** The mini-app is served under /app (framable by Telegram's web clients); the site at /. */
export const basename = window.location.pathname.startsWith('/app') ? '/app' : '';

/** The operator console has its own route tree and chunks under /admin (docs/admin.md). */
const isConsole = /^\/admin(\/|$)/.test(window.location.pathname);

// A stylesheet or a piece of art that fails is fetched again (docs/mini-app.md "Lost files"); a
// tree's chunk is asked for until it comes, with the backoff (the boot coin stays meanwhile).
retryFailedFiles();
const root = document.getElementById('root');
if (root && isConsole) void retryLoad(() => import('./admin/app.tsx'), Infinity).then((m) => m.mount(root));
else if (root) {
  const miniApp = hasInitData();
  if (miniApp) paintBootScreen();
  // One loader per tree, each its own import(): written as `miniApp ? import(a) : import(b)`, the
  // bundler gives both branches one preload list, the site's, and the site's styles (`#root` a
  // flex column) then load in the mini-app too (docs/mini-app.md "Page width").
  const trees = { miniApp: () => import('./mini-app/app.tsx'), site: () => import('./site/app.tsx') };
  const tree = retryLoad(trees[miniApp ? 'miniApp' : 'site'], Infinity);
  void tree.then((m) => m.mount(root, basename));
}
