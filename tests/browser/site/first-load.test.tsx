import { describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { siteRoutes } from '../../../src/site/routes.tsx';
import { pageTestHooks, render, until } from './render.tsx';

pageTestHooks();

/** A file of its own: React Router warns once per page load, so this one must be the first visit. */
describe('the first visit', () => {
  it('opens a lazy page (/terms) with no "No HydrateFallback" warning from React Router', async () => {
    const warn = vi.spyOn(console, 'warn');
    const router = createMemoryRouter(siteRoutes, { initialEntries: ['/terms'] });
    const host = await render(<RouterProvider router={router} />);
    await until(() => expect(host.querySelector('h1')).not.toBeNull());
    expect(warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes('HydrateFallback'))).toEqual([]);
    warn.mockRestore();
  });
});
