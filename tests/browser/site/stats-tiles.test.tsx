import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiPrefix } from '../../../engine/wire/api-types.ts';
import { StatsTiles } from '../../../src/site/landing/stats-tiles.tsx';
import { cleanup, render, settle, until } from './render.tsx';

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const stats = { totalClick: 1_234_567, totalPaticipant: 999, totalEarn: '98133204511.25' };

/** The text of the three tiles, keyed by their label. */
const tiles = (host: HTMLElement): Record<string, string> =>
  Object.fromEntries(
    [...host.querySelectorAll('.stat-tile')].map((t) => [t.querySelector('dt')!.textContent, t.querySelector('dd')!.textContent]),
  );

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('landing stats tiles', () => {
  it('shows a skeleton in each tile while the first answer is pending', async () => {
    const fetch = vi.fn(() => new Promise<Response>(() => {}));
    vi.stubGlobal('fetch', fetch);
    const host = await render(<StatsTiles />);
    expect(host.querySelectorAll('[data-testid="stat-skeleton"]')).toHaveLength(3);
    expect(host.querySelector('.stats')!.getAttribute('aria-busy')).toBe('true');
    expect(fetch).toHaveBeenCalledWith(`${apiPrefix}/public/stats`, expect.anything());
  });

  it('shows the three numbers with a plus sign in compact form once loaded', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(200, stats)));
    const host = await render(<StatsTiles />);
    await vi.waitFor(() => expect(host.querySelectorAll('[data-testid="stat-skeleton"]')).toHaveLength(0), { timeout: 5_000 });
    expect(tiles(host)).toEqual({ 'Total Clicks': '+1.2M', 'Total Clickers': '+999', 'Total $MONEY': '+98.1B' });
    expect(host.querySelector('.stats')!.getAttribute('aria-busy')).toBe('false');
  });

  it('logs "Network response was not ok" on a failed refetch and keeps the previous values', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const fetch = vi.fn(async () => json(200, stats)).mockResolvedValueOnce(json(200, stats)).mockResolvedValue(json(500, { message: 'boom' }));
    vi.stubGlobal('fetch', fetch);
    const host = await render(<StatsTiles refreshMs={20} />);
    await vi.waitFor(() => expect(fetch.mock.calls.length).toBeGreaterThanOrEqual(3), { timeout: 5_000 });
    await settle();
    expect(error).toHaveBeenCalledWith(new Error('Network response was not ok'));
    expect(tiles(host)).toEqual({ 'Total Clicks': '+1.2M', 'Total Clickers': '+999', 'Total $MONEY': '+98.1B' });
  });

  it('shows zero when the very first fetch fails, and the failure is only logged', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubGlobal('fetch', vi.fn(async () => json(503, {})));
    const host = await render(<StatsTiles />);
    await vi.waitFor(() => expect(tiles(host)).toEqual({ 'Total Clicks': '+0', 'Total Clickers': '+0', 'Total $MONEY': '+0' }), { timeout: 5_000 });
    expect(error).toHaveBeenCalledWith(new Error('Network response was not ok'));
    expect(host.textContent).not.toContain('Network response was not ok');
  });

  it('refetches every hour (economy.statsRefreshMs) and shows the new numbers', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const fetch = vi
      .fn(async () => json(200, stats))
      .mockResolvedValueOnce(json(200, stats))
      .mockResolvedValueOnce(json(200, { ...stats, totalClick: 2_500_000 }));
    vi.stubGlobal('fetch', fetch);
    const host = await render(<StatsTiles />);
    await until(() => expect(tiles(host)['Total Clicks']).toBe('+1.2M'));
    vi.advanceTimersByTime(3_599_999);
    expect(fetch).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    await until(() => expect(tiles(host)['Total Clicks']).toBe('+2.5M'));
  });
});
