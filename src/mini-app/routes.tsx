import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router-dom';
import { Navigate } from 'react-router-dom';
import { Shell } from './shell/shell.tsx';
import { BootScreen } from './shell/boot-screen.tsx';
import { RouteError } from './shell/route-error.tsx';
import { lazyRoute } from '../route-retry.tsx';

/**
 * A screen's chunk, asked for again with the backoff when it fails; after its last try, and when
 * it fails to render, the page area shows "Reconnecting…" under the shell (the bottom bar stays).
 */
const screen = <T,>(load: () => Promise<T>, pick: (m: T) => ComponentType) => ({
  lazy: lazyRoute(load, pick, RouteError),
  errorElement: <RouteError />,
});

/**
 * The mini-app route table (spec §2), as data. Every screen is its own lazy chunk, home too: the
 * first paint is the boot screen, shown until the status answers, and app.tsx starts the status
 * call at mount, so home's chunk (with decimal.js for §9 amounts) arrives alongside it rather than
 * in the initial JS (docs/mini-app.md budget).
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Shell />,
    HydrateFallback: BootScreen,
    errorElement: <RouteError />,
    children: [
      { index: true, ...screen(() => import('./home/home-screen.tsx'), (m) => m.HomeScreen) },
      { path: 'earn', ...screen(() => import('./earn/earn-screen.tsx'), (m) => m.EarnScreen) },
      { path: 'boost', ...screen(() => import('./boost/boost-screen.tsx'), (m) => m.BoostScreen) },
      { path: 'invite', ...screen(() => import('./invite/invite-screen.tsx'), (m) => m.InviteScreen) },
      { path: 'leaderboard', ...screen(() => import('./leaderboard/leaderboard-screen.tsx'), (m) => m.LeaderboardScreen) },
      { path: 'wallet', ...screen(() => import('./wallet/wallet-screen.tsx'), (m) => m.WalletScreen) },
      { path: 'comingsoon', ...screen(() => import('./comingsoon/coming-soon-screen.tsx'), (m) => m.ComingSoonScreen) },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
