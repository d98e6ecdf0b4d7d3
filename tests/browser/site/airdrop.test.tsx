import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import siteEn from '../../../engine/rules/i18n/catalogs/site/en.json';
import siteFa from '../../../engine/rules/i18n/catalogs/site/fa.json';
import type { Locale } from '../../../engine/rules/i18n/locales.ts';
import { config } from '../../../src/config.ts';
import { siteRoutes } from '../../../src/site/routes.tsx';
import { pageTestHooks, render, until } from './render.tsx';

const visit = async (locale: Locale) => {
  const router = createMemoryRouter(siteRoutes, { initialEntries: ['/airdrop'] });
  const host = await render(<RouterProvider router={router} />, locale);
  await until(() => expect(host.querySelector('main h1')?.textContent).toBeTruthy());
  return host;
};

pageTestHooks();
afterEach(() => {
  delete config.airdropDates;
});

describe('the site’s /airdrop page', () => {
  it('publishes who is paid, what the review looks at and how to appeal, with no threshold', async () => {
    const host = await visit('en');
    expect(host.querySelector('main h1')!.textContent).toBe(siteEn['site.airdrop.title']);
    expect(document.title).toBe(siteEn['site.airdrop.pageTitle']);
    const items = [...host.querySelectorAll('main li')].map((li) => li.textContent);
    expect(items).toContain(siteEn['site.airdrop.eligible.wallet']);
    expect(items.some((t) => t?.startsWith('Tapping: a rhythm no person keeps'))).toBe(true);
    expect(host.querySelector('main a[href="https://t.me/money_community"]')).not.toBeNull();
    // Not announced yet: both dates point to the channel.
    expect([...host.querySelectorAll('.airdrop-rules__dates dd')].map((d) => d.textContent)).toEqual(['announced in the channel', 'announced in the channel']);
    // The footer links the page.
    expect(host.querySelector('footer a[href="/airdrop"]')!.textContent).toBe(siteEn['site.shell.airdrop']);
    // No threshold: the only figure is the balance above 0.
    expect(host.querySelector('main')!.textContent).not.toMatch(/[1-9]/);
  });

  it('shows the published days in the language, Persian right to left', async () => {
    config.airdropDates = { reviewEnds: '2026-02-27', snapshotDay: '2026-03-01' };
    const en = await visit('en');
    expect([...en.querySelectorAll('.airdrop-rules__dates dd')].map((d) => d.textContent)).toEqual(['February 27, 2026', 'March 1, 2026']);
    const fa = await visit('fa');
    expect(document.documentElement.dir).toBe('rtl');
    expect(fa.querySelector('main h1')!.textContent).toBe(siteFa['site.airdrop.title']);
    expect(fa.querySelector('.airdrop-rules__dates time')!.getAttribute('datetime')).toBe('2026-02-27');
  });
});
