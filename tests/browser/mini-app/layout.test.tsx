import { page } from 'vitest/browser';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { demoStatus } from './fake-api.ts';
import { button, cleanup, click, find, mountApp } from './harness.tsx';

afterEach(cleanup);
afterAll(() => page.viewport(375, 812));

/** Every screen and tab a player can reach from the navigation (spec §2), and onboarding. */
const screens: { name: string; path: string; tab?: string; newcomer?: boolean }[] = [
  { name: 'home', path: '/' },
  { name: 'boost booster', path: '/boost' },
  { name: 'boost upgrade', path: '/boost', tab: 'Upgrade' },
  { name: 'earn social', path: '/earn' },
  { name: 'earn invite', path: '/earn', tab: 'Invite' },
  { name: 'earn partner', path: '/earn', tab: 'Partner' },
  { name: 'earn airdrop', path: '/earn', tab: 'Airdrop' },
  { name: 'earn achievements', path: '/earn', tab: 'Achievements' },
  { name: 'invite', path: '/invite' },
  { name: 'leaderboard', path: '/leaderboard' },
  { name: 'wallet', path: '/wallet' },
  { name: 'coming soon', path: '/comingsoon' },
  { name: 'onboarding', path: '/', newcomer: true },
];

/**
 * docs/mini-app.md "Page width": the page is as wide as the viewport on every screen, whatever is on
 * it. The app is mounted in a flex column, as `#root` was when the site's styles reached it: a page
 * with auto margins or a max-width would shrink to its content there, or leave stripes beside it.
 */
describe('layout: every screen fills the viewport', () => {
  for (const width of [320, 375, 430]) {
    it(`at ${width} px`, async () => {
      await page.viewport(width, 812);
      const found: string[] = [];
      for (const screen of screens) {
        const { host } = await mountApp(screen.path, screen.newcomer ? { status: demoStatus({ isClaimedWelcome: false }) } : {});
        host.style.cssText = 'display: flex; flex-direction: column; min-height: 100vh';
        if (screen.tab) await click(await button(screen.tab, 20_000));
        // The screen's own content is on (a lazy screen commits after the shell).
        await find('.app__page > *, .app [class^="onb"]', undefined, 20_000);
        const app = await find('.app');
        const viewport = document.documentElement.clientWidth;
        expect(viewport).toBe(width);
        const measured = {
          app: app.getBoundingClientRect().width,
          nav: document.querySelector('.nav')?.getBoundingClientRect().width ?? width,
          scroll: document.documentElement.scrollWidth,
        };
        if (measured.app !== width || measured.nav !== width || measured.scroll > width) found.push(`${screen.name}: ${JSON.stringify(measured)}`);
      }
      expect(found).toEqual([]);
    }, 120_000);
  }
});
