import { describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { siteRoutes } from '../../../src/site/routes.tsx';
import type { Locale } from '../../../engine/rules/i18n/locales.ts';
import { pageTestHooks, render, until } from './render.tsx';

// The site in other languages (docs/i18n.md): text from the catalogs, <html lang dir>, right to
// left for Persian, the switcher and the hreflang alternates.
const visit = async (path: string, locale: Locale) => {
  const router = createMemoryRouter(siteRoutes, { initialEntries: [path] });
  const host = await render(<RouterProvider router={router} />, locale);
  await until(() => expect(host.querySelector('main h1')).not.toBeNull());
  return { host, router };
};

pageTestHooks(() => {
  document.cookie = 'lang=; path=/; max-age=0';
});

/** The document's language and direction. */
const expectDocument = (lang: string, dir: 'ltr' | 'rtl') => {
  expect(document.documentElement.lang).toBe(lang);
  expect(document.documentElement.dir).toBe(dir);
};

describe('the site in Russian', () => {
  it('shows the landing page in Russian, left to right', async () => {
    const { host } = await visit('/', 'ru');
    expectDocument('ru', 'ltr');
    const texts = (selector: string) => [...host.querySelectorAll(selector)].map((d) => d.textContent);
    expect(texts('h1')[0]).toBe('Родные для Telegram социальные деньги');
    expect(texts('.header-cta')[0]).toBe('ЖМИ СЕЙЧАС');
    expect(texts('.stat-tile dt')).toEqual(['Всего кликов', 'Всего кликеров', 'Всего $MONEY']);
    expect(texts('.phase-title')[0]).toBe('Запуск кликера');
    // Months come from Intl in the language, quarters from the catalog.
    const dates = texts('.phase-date');
    expect(dates[0]).toMatch(/^сентябрь 2024/);
    expect(dates[4]).toBe('1-й квартал 2025');
  });

  it('shows the privacy policy with its 8 sections in Russian', async () => {
    const { host } = await visit('/policy', 'ru');
    await until(() => expect(host.querySelectorAll('main section')).toHaveLength(8));
    expect(host.querySelector('h1')!.textContent).toBe('Политика конфиденциальности');
    expect(host.querySelector('#section-6-title')!.textContent).toBe('6. Конфиденциальность детей');
    expect(host.querySelector('#section-6')!.textContent).toContain('младше 13 лет');
  });
});

describe('the site in Persian', () => {
  it('renders right to left, with the arrows turned round and numbers left as they are', async () => {
    const { host } = await visit('/', 'fa');
    expectDocument('fa', 'rtl');
    expect(host.querySelector('h1')!.textContent).toContain('Telegram');
    expect(host.querySelector('h1')!.textContent).toContain('پول اجتماعی');
    const arrow = host.querySelector('.roadmap-controls .arrow')!;
    expect(getComputedStyle(arrow).transform).toBe('matrix(-1, 0, 0, 1, 0, 0)');
    expect(host.querySelector('.phase-date')!.textContent).toBe('سپتامبر 2024');
  });

  it('scrolls the roadmap toward its end (the left) on Future', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('reduce'), media: query }));
    const { host } = await visit('/', 'fa');
    const track = host.querySelector<HTMLOListElement>('.roadmap-track')!;
    expect(getComputedStyle(track).direction).toBe('rtl');
    host.querySelector<HTMLButtonElement>('button[aria-label="آینده"]')!.click();
    expect(track.scrollLeft).toBe(-400);
    host.querySelector<HTMLButtonElement>('button[aria-label="گذشته"]')!.click();
    expect(track.scrollLeft).toBe(0);
  });

  it('shows the terms of use with its 13 sections in Persian', async () => {
    const { host } = await visit('/terms', 'fa');
    await until(() => expect(host.querySelectorAll('main section')).toHaveLength(13));
    expect(host.querySelector('h1')!.textContent).toBe('شرایط استفاده');
  });
});

describe('choosing a language', () => {
  it('switches the page, remembers the choice and puts ?lang= in the address', async () => {
    const { host, router } = await visit('/', 'en');
    const select = host.querySelector<HTMLSelectElement>('.lang-switch select')!;
    expect(select.getAttribute('aria-label')).toBe('Language');
    expect([...select.options].map((o) => o.value)).toEqual(['en', 'ru', 'uk', 'fa', 'id', 'vi', 'tr', 'es', 'pt-BR']);
    select.value = 'id';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    await until(() => expect(host.querySelector('h1')!.textContent).toBe('Uang Sosial Asli Telegram'));
    expect(document.documentElement.lang).toBe('id');
    expect(document.cookie).toContain('lang=id');
    await until(() => expect(router.state.location.search).toBe('?lang=id'));
    expect(host.querySelector('.lang-code')!.textContent).toBe('ID');
  });

  it('lists the page in every language for search engines (hreflang)', async () => {
    await visit('/terms', 'en');
    const links = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="alternate"][hreflang]')];
    const byLang = Object.fromEntries(links.map((l) => [l.hreflang, l.href]));
    expect(Object.keys(byLang).sort()).toEqual(['en', 'es', 'fa', 'id', 'pt-BR', 'ru', 'tr', 'uk', 'vi', 'x-default']);
    expect(byLang['pt-BR']).toBe(`${location.origin}/terms?lang=pt-BR`);
    expect(byLang['x-default']).toBe(`${location.origin}/terms`);
  });
});
