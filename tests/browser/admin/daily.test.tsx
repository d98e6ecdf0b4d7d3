import { describe, expect, it, vi } from 'vitest';
import { adminApiPrefix, csrfHeader, type AdminDailyDay } from '../../../engine/wire/admin-types.ts';
import { setCsrfToken } from '../../../src/admin/api.ts';
import DailyPage from '../../../src/admin/pages/daily-page.tsx';
import { render, until } from '../site/render.tsx';
import { button, click, consoleTestHooks, json } from './harness.ts';

const counts = { streakClaims: 0, comboFinds: 0, comboWins: 0, cipherWins: 0, cipherMisses: 0, remindersQueued: 0, remindersBlocked: 0 };
const days: AdminDailyDay[] = [
  { day: '2026-01-14', state: 'past', combo: [5, 9, 12], comboSetBy: null, cipher: 'CASH', cipherSetBy: null, counts: { ...counts, streakClaims: 812, comboFinds: 390, comboWins: 41, cipherWins: 233, cipherMisses: 97, remindersQueued: 510, remindersBlocked: 6 } },
  { day: '2026-01-15', state: 'today', combo: [4, 6, 8], comboSetBy: '77', cipher: 'VAULT', cipherSetBy: '77', counts: { ...counts, streakClaims: 120 } },
  { day: '2026-01-16', state: 'coming', combo: [7, 10, 11], comboSetBy: null, cipher: 'TOKEN', cipherSetBy: null, counts },
];

consoleTestHooks();

describe('daily page', () => {
  it('lists each day’s combo, word, who chose them and its counts; only coming days can be set', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(200, { items: days })));
    const host = await render(<DailyPage />);
    await until(() => expect(host.querySelectorAll('tbody tr')).toHaveLength(3));
    const rows = [...host.querySelectorAll('tbody tr')].map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent));
    expect(rows[0]).toEqual(['2026-01-14 ', 'Coin Jar, Stock Portfolio, Crypto Minerdrawn', 'CASHdrawn', '812', '390 / 41', '233 / 97', '510 / 6', '']);
    expect(rows[1]![0]).toContain('today');
    expect(rows[1]![2]).toBe('VAULTadmin 77');
    expect(host.querySelectorAll('tbody button')).toHaveLength(1);
  });

  it('sets a coming day with the CSRF token and shows a refusal naming its field', async () => {
    setCsrfToken('csrf-9');
    const calls: { method: string; path: string; init: RequestInit }[] = [];
    vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit = {}) => {
      const path = url.replace(adminApiPrefix, '');
      calls.push({ method: init.method ?? 'GET', path, init });
      if (init.method === 'PUT') return json(400, { error: 'Bad Request', message: 'cipher must be 1–12 letters A–Z', field: 'cipher', code: 'dailyCipherWord' });
      return json(200, { items: days });
    }));
    const host = await render(<DailyPage />);
    await until(() => expect(host.querySelectorAll('tbody tr')).toHaveLength(3));
    await click(button(host, 'Set'));
    await click(button(host, 'Set 2026-01-16'));
    await until(() => expect(host.querySelector('[role="alert"]')?.textContent).toBe('cipher: cipher must be 1–12 letters A–Z'));
    const sent = calls.find((c) => c.method === 'PUT')!;
    expect(sent.path).toBe('/daily/2026-01-16');
    expect(JSON.parse(String(sent.init.body))).toEqual({ combo: [7, 10, 11], cipher: 'TOKEN' });
    expect(new Headers(sent.init.headers).get(csrfHeader)).toBe('csrf-9');
  });
});
