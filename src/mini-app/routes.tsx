import type { RouteObject } from 'react-router-dom';
import { Navigate } from 'react-router-dom';
import { Shell } from './shell/shell.tsx';
import { BootScreen } from './shell/boot-screen.tsx';
import { HomeScreen } from './home/home-screen.tsx';

/**
 * The mini-app route table (spec §2), as data. Home is in the first chunk so a tap works at
 * once; every other screen is its own lazy chunk to keep the initial JS under budget.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Shell />,
    HydrateFallback: BootScreen,
    children: [
      { index: true, element: <HomeScreen /> },
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
