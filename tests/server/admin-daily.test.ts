/**
 * The daily loop in the console (docs/admin.md "Daily"): operators set coming days' combo and word,
 * each change with its audit row in its own transaction; bad input is a 4xx naming the field and
 * changes nothing; each day's counts come from the players' own claims.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { AdminDailyDay, AuditEntry, Page } from '../../engine/wire/admin-types.ts';
import type { CipherGuessResult, ErrorBody, UserStatus } from '../../engine/wire/api-types.ts';
import { dayStartMs, isoDay, utcDayOf } from '../../engine/rules/daily.ts';
import { economy } from '../../engine/rules/economy.ts';
import { dailySecretOf } from '../../server/daily/settings.ts';
import { drawCipher, drawCombo } from '../../server/daily/puzzles.ts';
import { openAdminHarness } from './admin-harness.ts';
import { setBalances, withAuditRefused } from './db-helpers.ts';
import { backends, openForSuite } from './harness.ts';

describe.each(backends)('the daily loop in the console (%s)', (backend) => {
  const h = openForSuite(() => openAdminHarness(backend));
  // A session lasts hours: sign in again whenever a test moves the clock by days.
  let session: Awaited<ReturnType<typeof h.signIn>>;
  beforeEach(async () => {
    session = await h.signIn();
  });
  const today = () => utcDayOf(h.clock.now());
  const put = (day: string, body: unknown) => h.admin('PUT', `/daily/${day}`, session, { body });
  const list = async (query = '') => (await h.admin('GET', `/daily${query}`, session)).json<{ items: AdminDailyDay[] }>().items;
  const puzzleRows = async () => (await h.db.query<{ day: number; combo: number[] | null; cipher: string | null }>('SELECT day, combo, cipher FROM daily_puzzles ORDER BY day')).rows;
  const audits = async () => (await h.admin('GET', '/audit?action=daily.set', session)).json<Page<AuditEntry>>().items;

  it('lists the past week, today and the coming week, each day with the server’s draw until an operator sets it', async () => {
    const days = await list();
    expect(days).toHaveLength(15);
    expect(days.map((d) => d.state)).toEqual([...Array(7).fill('past'), 'today', ...Array(7).fill('coming')]);
    expect(days[7]!.day).toBe(isoDay(today()));
    const secret = dailySecretOf(h.config);
    for (const [i, d] of days.entries()) {
      expect(d.combo).toEqual(drawCombo(secret, today() - 7 + i));
      expect(d.cipher).toBe(drawCipher(secret, today() - 7 + i));
      expect(d).toMatchObject({ comboSetBy: null, cipherSetBy: null });
    }
    // Reading writes nothing.
    expect(await puzzleRows()).toEqual([]);
  });

  it('sets a coming day with its audit row; players get it that day and never before it is found', async () => {
    const day = today() + 2;
    const r = await put(isoDay(day), { combo: [6, 4, 11], cipher: 'gold' });
    expect(r.statusCode).toBe(200);
    expect(r.json<AdminDailyDay>()).toMatchObject({ day: isoDay(day), combo: [6, 4, 11], cipher: 'GOLD', comboSetBy: String(session.session.adminId), state: 'coming' });
    const [audit] = await audits();
    expect(audit).toMatchObject({ action: 'daily.set', target: `daily:${isoDay(day)}`, adminId: String(session.session.adminId), after: { combo: [6, 4, 11], cipher: 'GOLD' } });
    // Only the word next: the combo stays; then back to the draw with null.
    await put(isoDay(day), { cipher: 'VAULT' });
    expect((await list(`?from=${isoDay(day)}&days=1`))[0]).toMatchObject({ combo: [6, 4, 11], cipher: 'VAULT' });
    expect((await audits())[0]).toMatchObject({ before: { combo: [6, 4, 11], cipher: 'GOLD' }, after: { combo: [6, 4, 11], cipher: 'VAULT' } });

    // That day: a player finds two cards and guesses the word; nothing they see names the third card or the word early.
    h.clock.set(dayStartMs(day) + 3_600_000);
    session = await h.signIn();
    const player = await h.newPlayer();
    await setBalances(h.db, player, { totalEarn: '1000000000000', levels: Object.fromEntries([4, 5, 6, 7, 8, 9, 10].map((k) => [String(k), 5])) });
    const seen: string[] = [];
    for (const k of [6, 4]) seen.push((await h.call('POST', '/update-level', player, { body: { levelKey: k } })).body);
    seen.push((await h.call('POST', '/daily/cipher', player, { body: { word: 'WRONG' } })).body);
    seen.push((await h.call('GET', '', player)).body);
    seen.push((await h.admin('GET', `/players/${player}`, session)).body);
    for (const body of seen) {
      expect(body).not.toMatch(/VAULT/i);
      const daily = ((JSON.parse(body) as { daily?: UserStatus['daily']; status?: UserStatus }).daily ?? (JSON.parse(body) as { status?: UserStatus }).status?.daily);
      if (daily) expect(daily.combo.found.every((k) => k === 6 || k === 4)).toBe(true);
    }
    expect((await h.call('POST', '/daily/cipher', player, { body: { word: 'vault' } })).json<CipherGuessResult>().correct).toBe(true);
    await h.call('POST', '/update-level', player, { body: { levelKey: 11 } });
    await h.call('POST', '/daily/streak', player);
    expect((await list(`?from=${isoDay(day)}&days=1`))[0]!.counts).toEqual({
      streakClaims: 1, comboFinds: 3, comboWins: 1, cipherWins: 1, cipherMisses: 1, remindersQueued: 0, remindersBlocked: 0,
    });
    // Once the day has begun it cannot be changed.
    const late = await put(isoDay(day), { cipher: 'OTHER' });
    expect(late.statusCode).toBe(400);
    expect(late.json<ErrorBody>()).toMatchObject({ code: 'dailyDayBegun', field: 'day' });
    expect((await list(`?from=${isoDay(day)}&days=1`))[0]!.cipher).toBe('VAULT');
  });

  it('refuses bad input with a 4xx naming the field, and changes nothing, not even the audit log', async () => {
    const day = isoDay(today() + 3);
    const before = { rows: await puzzleRows(), audits: (await audits()).length };
    const cases: [string, unknown, string][] = [
      [day, { combo: [4, 5] }, 'combo'],
      [day, { combo: [4, 4, 5] }, 'combo'],
      [day, { combo: [1, 2, 3] }, 'combo'],
      [day, { combo: [4, 5, 22] }, 'combo'],
      [day, { combo: [4, 5, 6, 7] }, 'combo'],
      [day, { combo: ['4', 5, 6] }, 'combo'],
      [day, { cipher: 'TWO WORDS' }, 'cipher'],
      [day, { cipher: '' }, 'cipher'],
      [day, { cipher: 'ÄPFEL' }, 'cipher'],
      [day, { cipher: 'A'.repeat(economy.dailyCipherMaxLetters + 1) }, 'cipher'],
      [day, { cipher: 42 }, 'cipher'],
      [day, { combo: [4, 5, 6], hint: 'x' }, 'hint'],
      ['2026-02-30', { cipher: 'GOLD' }, 'day'],
      ['tomorrow', { cipher: 'GOLD' }, 'day'],
      [isoDay(today()), { cipher: 'GOLD' }, 'day'],
      [isoDay(today() - 1), { cipher: 'GOLD' }, 'day'],
      [isoDay(today() + 61), { cipher: 'GOLD' }, 'day'],
    ];
    for (const [d, body, field] of cases) {
      const r = await put(d, body);
      expect(r.statusCode, `${d} ${JSON.stringify(body)}`).toBe(400);
      // A schema error may name the element too (combo[0]).
      expect(r.json<ErrorBody>().field, `${d} ${JSON.stringify(body)}`).toMatch(new RegExp(`^${field}(\\[\\d+\\])?$`));
    }
    const empty = await put(day, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json<ErrorBody>().code).toBe('dailyPuzzleEmpty');
    for (const query of ['?from=yesterday', '?days=0', '?days=63', '?from=2026-13-01', '?other=1']) expect((await h.admin('GET', `/daily${query}`, session)).statusCode).toBe(400);
    expect(await puzzleRows()).toEqual(before.rows);
    expect((await audits()).length).toBe(before.audits);
    // Without a session: refused too.
    expect((await h.admin('PUT', `/daily/${day}`, null, { body: { cipher: 'GOLD' } })).statusCode).toBe(401);
  });

  it('leaves no change behind when its audit row cannot be written', async () => {
    const day = isoDay(today() + 5);
    await withAuditRefused(h.db, async () => {
      expect((await put(day, { cipher: 'LOST' })).statusCode).toBe(500);
    });
    expect((await puzzleRows()).some((r) => r.cipher === 'LOST')).toBe(false);
    expect((await put(day, { cipher: 'KEPT' })).statusCode).toBe(200);
    expect((await puzzleRows()).find((r) => isoDay(r.day) === day)?.cipher).toBe('KEPT');
  });
});
