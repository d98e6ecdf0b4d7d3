import type { RouteObject } from 'react-router-dom';
import { Navigate } from 'react-router-dom';
import { Shell } from './shell/shell.tsx';
import { BootScreen } from './shell/boot-screen.tsx';

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
    children: [
      { index: true, lazy: async () => ({ Component: (await import('./home/home-screen.tsx')).HomeScreen }) },
      { path: 'earn', lazy: async () => ({ Component: (await import('./earn/earn-screen.tsx')).EarnScreen }) },
      { path: 'boost', lazy: async () => ({ Component: (await import('./boost/boost-screen.tsx')).BoostScreen }) },
      { path: 'invite', lazy: async () => ({ Component: (await import('./invite/invite-screen.tsx')).InviteScreen }) },
      { path: 'leaderboard', lazy: async () => ({ Component: (await import('./leaderboard/leaderboard-screen.tsx')).LeaderboardScreen }) },
      { path: 'wallet', lazy: async () => ({ Component: (await import('./wallet/wallet-screen.tsx')).WalletScreen }) },
      { path: 'comingsoon', lazy: async () => ({ Component: (await import('./comingsoon/coming-soon-screen.tsx')).ComingSoonScreen }) },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
