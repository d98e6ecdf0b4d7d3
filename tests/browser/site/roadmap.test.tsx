import { afterEach, describe, expect, it, vi } from 'vitest';
import { Roadmap } from '../../../src/site/landing/roadmap.tsx';
import '../../../src/site/site.css';
import '../../../src/site/landing/landing.css';
import { cleanup, render } from './render.tsx';

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

const active = (host: HTMLElement): string[] =>
  [...host.querySelectorAll('li[data-active="true"]')].map((li) => li.querySelector('h3')!.textContent!);

const button = (host: HTMLElement, name: string): HTMLButtonElement =>
  host.querySelector<HTMLButtonElement>(`button[aria-label="${name}"]`)!;

describe('landing roadmap', () => {
  it('lists the 8 phases in order', async () => {
    const host = await render(<Roadmap now={new Date(2026, 0, 1)} />);
    const titles = [...host.querySelectorAll('li h3')].map((h) => h.textContent);
    expect(titles).toHaveLength(8);
    expect(titles[0]).toBe('Clicker launching');
    expect(titles[7]).toBe('Money DAO');
  });

  it('highlights (green, "Now") the phase whose date is the current month and year', async () => {
    const host = await render(<Roadmap now={new Date(2024, 9, 15)} />);
    expect(active(host)).toEqual(['Dollar transferring']);
    const li = host.querySelector('li[data-active="true"]')!;
    expect(li.getAttribute('aria-current')).toBe('step');
    expect(li.textContent).toContain('Now');
    expect(getComputedStyle(li).borderTopColor).toBe('rgb(52, 211, 153)'); // the site's green
  });

  it('highlights every phase sharing the month (September 2024: phases 1 and 2)', async () => {
    const host = await render(<Roadmap now={new Date(2024, 8, 1)} />);
    expect(active(host)).toEqual(['Clicker launching', 'Dollar clicking']);
  });

  it('never highlights quarter dates, even inside that quarter', async () => {
    const host = await render(<Roadmap now={new Date(2025, 4, 10)} />);
    expect(active(host)).toEqual([]);
  });

  it('scrolls the timeline 400 px per Future click and back 400 px per Past click', async () => {
    const host = await render(<Roadmap now={new Date(2026, 0, 1)} />);
    const track = host.querySelector<HTMLOListElement>('.roadmap-track')!;
    expect(track.scrollWidth - track.clientWidth).toBeGreaterThan(800);
    // Smooth scrolling on a busy machine can take a while: poll generously.
    const at = (px: number) => expect.poll(() => track.scrollLeft, { timeout: 5_000 }).toBe(px);
    button(host, 'Future').click();
    await at(400);
    button(host, 'Future').click();
    await at(800);
    button(host, 'Past').click();
    await at(400);
  });

  it('steps without animation for visitors who prefer reduced motion', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('reduce'), media: query }));
    const host = await render(<Roadmap now={new Date(2026, 0, 1)} />);
    const track = host.querySelector<HTMLOListElement>('.roadmap-track')!;
    button(host, 'Future').click();
    expect(track.scrollLeft).toBe(400);
    button(host, 'Past').click();
    expect(track.scrollLeft).toBe(0);
  });

  it('shows arrows only on a phone, with the names kept for screen readers', async () => {
    const host = await render(<Roadmap />);
    const label = button(host, 'Past').querySelector('.control-label')!;
    expect(getComputedStyle(label).display).toBe(window.innerWidth <= 640 ? 'none' : 'inline');
    expect(button(host, 'Past').textContent).toContain('←');
  });
});
