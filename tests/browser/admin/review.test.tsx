import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { adminApiPrefix, csrfHeader } from '../../../engine/wire/admin-types.ts';
import type { AirdropFlagRow } from '../../../engine/wire/airdrop-review.ts';
import { setCsrfToken } from '../../../src/admin/api.ts';
import ReviewPage from '../../../src/admin/pages/review-page.tsx';
import { render, until } from '../site/render.tsx';
import { button, click, consoleTestHooks, json, type } from './harness.ts';

const flag = (over: Partial<AirdropFlagRow>): AirdropFlagRow => ({
  userId: '8600000001',
  score: 90,
  state: 'review',
  reasons: ['tapRhythm', 'tapAtCap'],
  teleUsername: 'tapper',
  totalMoney: '1200',
  decision: null,
  appeal: null,
  evidence: [
    { code: 'tapRhythm', text: 'In 12 of 12 measured stretches of play, the time between click batches and the taps in each hardly varied, as a script’s do.' },
    { code: 'tapAtCap', text: 'Of 9 minutes spent tapping, 100% were at the human-rate cap.' },
  ],
  decidedAtMs: null,
  decisionNote: '',
  ...over,
});

consoleTestHooks();

describe('the console’s review page', () => {
  it('lists flagged players with the evidence behind each reason, and records a decision with its note', async () => {
    setCsrfToken('csrf-9');
    const calls: { method: string; path: string; body?: string; csrf?: string }[] = [];
    const second = flag({ userId: '8600000002', score: 50, reasons: ['sharedDevice'], teleUsername: 'family', evidence: [{ code: 'sharedDevice', text: 'The device this account plays on is used by 6 accounts.' }] });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        const path = url.replace(adminApiPrefix, '');
        const method = init.method ?? 'GET';
        calls.push({ method, path, ...(init.body ? { body: String(init.body) } : {}), csrf: (init.headers as Record<string, string>)[csrfHeader] });
        if (method === 'GET' && path === '/integrity/flags?limit=50&state=review') return json(200, { items: [flag({}), second], nextCursor: null, openReviews: 2 });
        if (method === 'POST' && path === '/integrity/players/8600000001/decision') return json(200, flag({ state: 'excluded', decision: 'excluded', decidedAtMs: Date.UTC(2026, 0, 20, 9, 30), decisionNote: 'script' }));
        if (method === 'POST' && path === '/integrity/players/8600000002/appeal') return json(409, { error: 'Conflict', message: 'Player 8600000002 is neither under review nor excluded: there is no appeal to decide', code: 'nothingToAppeal', field: 'userId' });
        return json(404, { error: 'Not Found', message: `no fake for ${method} ${path}` });
      }),
    );
    const host = await render(<MemoryRouter><ReviewPage /></MemoryRouter>);
    await until(() => expect(host.querySelectorAll('[data-testid="flag-row"]')).toHaveLength(2));
    expect(host.textContent).toContain('2 open reviews to decide before the snapshot');
    const [first, other] = [...host.querySelectorAll('[data-testid="flag-row"]')];
    expect([...first!.querySelectorAll('.evidence li')].map((li) => li.textContent)).toEqual([
      'tapRhythm In 12 of 12 measured stretches of play, the time between click batches and the taps in each hardly varied, as a script’s do.',
      'tapAtCap Of 9 minutes spent tapping, 100% were at the human-rate cap.',
    ]);

    await type(first!.querySelector('input')!, '  script  ');
    await click(button(first!, 'Exclude'));
    await until(() => expect(first!.textContent).toContain('excluded'));
    expect(first!.textContent).toContain('Excluded 2026-01-20 09:30 UTC — “script”');
    const decision = calls.find((c) => c.method === 'POST')!;
    expect(JSON.parse(decision.body!)).toEqual({ decision: 'exclude', note: 'script' });
    expect(decision.csrf).toBe('csrf-9');
    // Excluded: there is nothing left to exclude.
    expect(button(first!, 'Exclude')).toBeUndefined();

    await click(button(other!, 'Overturn'));
    await until(() => expect(other!.querySelector('[role="alert"]')?.textContent).toContain('no appeal to decide'));
  });
});
