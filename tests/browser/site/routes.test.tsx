import { describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { isMiniAppPath, LeaveContext } from '../../../src/site/bot-redirect.tsx';
import { siteRoutes } from '../../../src/site/routes.tsx';
import { botLink, config } from '../../../src/config.ts';
import { pageTestHooks, render } from './render.tsx';

const visit = async (path: string) => {
  const leave = vi.fn();
  const router = createMemoryRouter(siteRoutes, { initialEntries: [path] });
  const host = await render(
    <LeaveContext.Provider value={leave}>
      <RouterProvider router={router} />
    </LeaveContext.Provider>,
  );
  return { host, leave };
};

pageTestHooks();

describe('public routes', () => {
  it('knows the mini-app-only paths: its screens and anything under /app', () => {
    for (const p of ['/earn', '/boost', '/invite', '/leaderboard', '/wallet', '/comingsoon', '/earn/', '/app', '/app/', '/app/earn'])
      expect(isMiniAppPath(p), p).toBe(true);
    for (const p of ['/', '/policy', '/terms', '/apple', '/earnings', '/nope']) expect(isMiniAppPath(p), p).toBe(false);
  });

  it.each(['/earn', '/boost', '/invite', '/leaderboard', '/wallet', '/comingsoon', '/app', '/app/boost'])(
    'sends %s to the bot when there is no init data',
    async (path) => {
      const { leave } = await visit(path);
      await vi.waitFor(() => expect(leave).toHaveBeenCalledWith(`https://t.me/${config.botUsername}`), { timeout: 5_000 });
      expect(botLink()).toBe(`https://t.me/${config.botUsername}`);
    },
  );

  it('renders the landing page at / inside the shell and stays', async () => {
    const { host, leave } = await visit('/');
    expect(host.querySelector('h1')!.textContent).toBe('Telegram Native Social Money');
    expect(host.textContent).toContain('Exclusively on TON');
    expect(host.querySelector('header a.header-cta')!.getAttribute('href')).toBe(botLink());
    expect(host.querySelector('footer')!.textContent).toContain('© 2024 MONEY');
    expect(leave).not.toHaveBeenCalled();
  });

  it('takes every outside link from config', async () => {
    const { host } = await visit('/');
    const hrefs = [...host.querySelectorAll('a[href^="http"]')].map((a) => a.getAttribute('href'));
    const allowed = [config.twitterUrl, config.channelUrl, config.communityUrl, botLink()];
    expect(hrefs.length).toBeGreaterThan(5);
    for (const href of hrefs) expect(allowed).toContain(href);
    expect(hrefs).toEqual(expect.arrayContaining(allowed));
  });

  /** A legal page: its heading, its numbered sections and some of its words. */
  const legalPage = async (path: string, title: string, sections: number, words: string[]) => {
    const { host } = await visit(path);
    await vi.waitFor(() => expect(host.querySelector('h1')?.textContent).toBe(title), { timeout: 5_000 });
    expect(host.querySelectorAll('article section h2')).toHaveLength(sections);
    for (const w of words) expect(host.textContent).toContain(w);
  };

  it('renders the privacy policy with its 8 sections', async () => {
    await legalPage('/policy', 'Privacy Policy', 8, ['under 13', 'within 30 days']);
    await vi.waitFor(() => expect(document.title).toBe('Privacy Policy — MONEY'), { timeout: 5_000 });
  });

  it('renders the terms of use with their 13 sections', async () => {
    await legalPage('/terms', 'Terms of Use', 13, ['Seychelles', "30 days' notice"]);
  });

  it('moves focus to the new page heading after following a footer link', async () => {
    const { host } = await visit('/');
    host.querySelector<HTMLAnchorElement>('footer a[href="/terms"]')!.click();
    await vi.waitFor(() => expect(document.activeElement?.textContent).toBe('Terms of Use'), { timeout: 5_000 });
    expect(document.activeElement?.tagName).toBe('H1');
  });

  it('shows a small not-found page with a link home for other paths', async () => {
    const { host, leave } = await visit('/no-such-page');
    expect(host.querySelector('h1')!.textContent).toBe('This page is not here');
    expect(host.querySelector('main a[href="/"]')).not.toBeNull();
    expect(leave).not.toHaveBeenCalled();
  });
});
