/** The console's pages as a data table: the nav and the router both read it. */
import type { ComponentType } from 'react';
import { retryingLazy } from '../route-retry.tsx';

export interface AdminRoute {
  path: string;
  /** Shown in the nav; pages without one are reached from other pages. */
  label?: string;
  Page: ComponentType;
}

/** A page's own chunk, asked for again with the backoff when it fails (src/retry-load.ts). */
const page = (load: () => Promise<{ default: ComponentType }>) => retryingLazy(load);

export const adminRoutes: AdminRoute[] = [
  { path: '/', label: 'Dashboard', Page: page(() => import('./pages/dashboard-page.tsx')) },
  { path: '/players', label: 'Players', Page: page(() => import('./pages/players-page.tsx')) },
  { path: '/players/:id', Page: page(() => import('./pages/player-page.tsx')) },
  { path: '/tasks', label: 'Tasks', Page: page(() => import('./pages/tasks-page.tsx')) },
  { path: '/broadcasts', label: 'Broadcasts', Page: page(() => import('./pages/broadcasts-page.tsx')) },
  { path: '/daily', label: 'Daily', Page: page(() => import('./pages/daily-page.tsx')) },
  // The Stars shop: catalog, orders and refunds, revenue, reconciliation (docs/admin.md "Shop").
  { path: '/shop', label: 'Shop', Page: page(() => import('./pages/shop-page.tsx')) },
  { path: '/forecast', label: 'Forecast', Page: page(() => import('./pages/forecast-page.tsx')) },
  // The airdrop snapshot's operator controls plug in here (docs/admin.md "Airdrop").
  { path: '/airdrop', label: 'Airdrop', Page: page(() => import('./pages/airdrop-page.tsx')) },
  // The integrity review the snapshot waits on (docs/airdrop.md "Integrity review").
  { path: '/review', label: 'Review', Page: page(() => import('./pages/review-page.tsx')) },
  { path: '/audit', label: 'Audit log', Page: page(() => import('./pages/audit-page.tsx')) },
];
