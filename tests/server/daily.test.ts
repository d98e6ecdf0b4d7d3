/**
 * The daily loop's player side (docs/rules.md §15) through the real app: the streak, the combo and
 * the cipher, each paid once under replays and races, days decided by the injected clock.
 */
import { describe, expect, it } from 'vitest';
import type { CipherGuessResult, DailyClaimResult, ErrorBody, UserStatus } from '../../engine/wire/api-types.ts';
import { dayStartMs, isoDay, streakRewardMoney, utcDayOf } from '../../engine/rules/daily.ts';
import { economy } from '../../engine/rules/economy.ts';
import { money } from '../../engine/rules/money.ts';
import { dailySecretOf } from '../../server/daily/settings.ts';
import { drawCipher, drawCombo } from '../../server/daily/puzzles.ts';
import { ledgerMatchesBalances, setBalances } from './db-helpers.ts';
import { backends, expectMoney, openForSuite, openHarness } from './harness.ts';

/** A day far from the others of this file, so each test owns its puzzles: day n of 2027. */
const dayOf2027 = (n: number) => utcDayOf(Date.UTC(2027, 0, 1)) + n;
const at = (day: number, hours = 12, minutes = 0) => dayStartMs(day) + hours * 3_600_000 + minutes * 60_000;

describe.each(backends)('the daily loop: streak, combo, cipher (%s)', (backend) => {
  const h = openForSuite(() => openHarness(backend));

  const status = async (id: number) => (await h.call('GET', '', id)).json<UserStatus>();
  const claimStreak = (id: number) => h.call('POST', '/daily/streak', id);
  const guess = (id: number, word: unknown) => h.call('POST', '/daily/cipher', id, { body: { word } });
  const upgrade = (id: number, levelKey: number) => h.call('POST', '/update-level', id, { body: { levelKey } });
  const setPuzzle = async (day: number, combo: number[] | null, cipher: string | null) => {
    await h.db.query('INSERT INTO daily_puzzles (day, combo, cipher, updated_at_ms) VALUES ($1, $2::int[], $3, 0) ON CONFLICT (day) DO UPDATE SET combo = $2::int[], cipher = $3', [day, combo, cipher]);
  };
  /** A player who may buy any of the first ten cards, with dollars for many upgrades. */
  const richPlayer = async () => {
    const id = await h.newPlayer();
    const levels = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [String(4 + i), 5]));
    await setBalances(h.db, id, { totalEarn: '1000000000000', levels });
    return id;
  };

  describe('streak', () => {
    it('pays the calendar day by day, rising for ten days, then the last step every day after', async () => {
      const day = dayOf2027(0);
      h.clock.set(at(day, 0, 1));
      const id = await h.newPlayer();
      let paid = money(0);
      for (let n = 1; n <= 12; n++) {
        h.clock.set(at(day + n - 1, n % 2 === 0 ? 23 : 0, n % 2 === 0 ? 59 : 1));
        const before = (await status(id)).daily!.streak;
        expect(before).toMatchObject({ claimedToday: false, days: n - 1, step: Math.min(n, 10), reward: String(streakRewardMoney(n)) });
        const r = await claimStreak(id);
        expect(r.statusCode).toBe(200);
        const body = r.json<DailyClaimResult>();
        expect(body.claimed).toBe(String(economy.dailyStreakRewardsMoney[Math.min(n, 10) - 1]));
        expect(body.status.daily!.streak).toMatchObject({ claimedToday: true, days: n, step: Math.min(n, 10) });
        paid = paid.plus(body.claimed);
      }
      await expectMoney(h.db, id, paid.toString());
      const rows = await h.db.query<{ n: number }>("SELECT count(*)::int AS n FROM ledger WHERE user_id = $1 AND kind = 'daily-streak'", [id]);
      expect(rows.rows[0]!.n).toBe(12);
    });

    it('is claimed once a day: a replay is refused with its code, and racing claims pay once', async () => {
      h.clock.set(at(dayOf2027(20)));
      const id = await h.newPlayer();
      const answers = await Promise.all(Array.from({ length: 12 }, () => claimStreak(id)));
      expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
      for (const r of answers.filter((x) => x.statusCode !== 200)) {
        expect(r.statusCode).toBe(409);
        expect(r.json<ErrorBody>().code).toBe('dailyStreakClaimed');
      }
      const replay = await claimStreak(id);
      expect(replay.statusCode).toBe(409);
      await expectMoney(h.db, id, streakRewardMoney(1));
      // Later the same UTC day: still refused; a clock stepped back into yesterday: refused too.
      h.clock.set(at(dayOf2027(20), 23, 59) + 59_999);
      expect((await claimStreak(id)).statusCode).toBe(409);
      h.clock.set(at(dayOf2027(19), 23));
      expect((await claimStreak(id)).statusCode).toBe(409);
      await expectMoney(h.db, id, streakRewardMoney(1));
    });

    it('breaks at the UTC day boundary: a day missed starts the calendar again at step 1', async () => {
      const day = dayOf2027(30);
      h.clock.set(at(day, 9));
      const id = await h.newPlayer();
      expect((await claimStreak(id)).statusCode).toBe(200);
      // The last millisecond of the next day still continues the run…
      h.clock.set(dayStartMs(day + 2) - 1);
      expect((await claimStreak(id)).json<DailyClaimResult>().status.daily!.streak).toMatchObject({ days: 2, step: 2 });
      // …and a whole day without a claim breaks it: the status shows it broken before the claim.
      h.clock.set(dayStartMs(day + 4));
      expect((await status(id)).daily!.streak).toMatchObject({ days: 0, claimedToday: false, step: 1, reward: String(streakRewardMoney(1)) });
      const again = (await claimStreak(id)).json<DailyClaimResult>();
      expect(again.claimed).toBe(String(streakRewardMoney(1)));
      expect(again.status.daily!.streak).toMatchObject({ days: 1, step: 1 });
    });

    it('pays the referrer 5 % of every streak claim, through the ledger', async () => {
      h.clock.set(at(dayOf2027(40)));
      const referrer = await h.newPlayer();
      const friend = await h.newPlayer();
      expect((await h.call('POST', '/referral', friend, { query: { refcode: (await status(referrer)).refcode } })).statusCode).toBe(200);
      await claimStreak(friend);
      h.clock.set(at(dayOf2027(41)));
      await claimStreak(friend);
      const share = money(streakRewardMoney(1)).plus(streakRewardMoney(2)).times(economy.referralSharePercent).div(100);
      const s = await status(referrer);
      expect(money(s.totalMoneyRef).eq(share)).toBe(true);
      await expectMoney(h.db, referrer, share.toString());
      expect(await ledgerMatchesBalances(h.db, [referrer, friend])).toBe(true);
    });
  });

  describe('combo', () => {
    it('pays once when the three cards of the day are upgraded that day, however the upgrades race', async () => {
      const day = dayOf2027(50);
      h.clock.set(at(day, 8));
      await setPuzzle(day, [5, 9, 13], 'ZQXJZQ');
      const id = await richPlayer();
      const moneyBefore = (await status(id)).totalMoney;
      // A card outside the combo finds nothing.
      expect((await upgrade(id, 4)).json<UserStatus>().daily!.combo).toEqual({ found: [], complete: false, reward: String(economy.dailyComboRewardMoney) });
      expect((await upgrade(id, 9)).json<UserStatus>().daily!.combo.found).toEqual([9]);
      // Upgrading a found card again finds nothing more.
      expect((await upgrade(id, 9)).json<UserStatus>().daily!.combo.found).toEqual([9]);
      expect((await upgrade(id, 5)).json<UserStatus>().daily!.combo.found).toEqual([9, 5]);
      // The last card, many times at once: found once, paid once.
      const answers = await Promise.all(Array.from({ length: 8 }, () => upgrade(id, 13)));
      expect(answers.every((r) => r.statusCode === 200)).toBe(true);
      const s = await status(id);
      expect(s.daily!.combo).toMatchObject({ found: [9, 5, 13], complete: true });
      expect(money(s.totalMoney).minus(moneyBefore).eq(economy.dailyComboRewardMoney)).toBe(true);
      const rows = await h.db.query<{ reference: string }>("SELECT reference FROM ledger WHERE user_id = $1 AND kind = 'daily-combo'", [id]);
      expect(rows.rows).toEqual([{ reference: `combo:${isoDay(day)}` }]);
      expect(await ledgerMatchesBalances(h.db, [id])).toBe(true);
    });

    it('counts only the finds of the day: a new UTC day starts with no card found', async () => {
      const day = dayOf2027(60);
      await setPuzzle(day, [6, 7, 8], 'QQQ');
      await setPuzzle(day + 1, [6, 10, 11], 'QQQ');
      h.clock.set(dayStartMs(day + 1) - 2);
      const id = await richPlayer();
      await upgrade(id, 6);
      expect((await upgrade(id, 7)).json<UserStatus>().daily!.combo.found).toEqual([6, 7]);
      h.clock.set(dayStartMs(day + 1));
      expect((await status(id)).daily!.combo.found).toEqual([]);
      await upgrade(id, 8);
      expect((await upgrade(id, 6)).json<UserStatus>().daily!.combo).toMatchObject({ found: [6], complete: false });
    });

    it('is drawn from the server secret when nobody set it: three different cards of the first nine', async () => {
      const day = dayOf2027(70);
      h.clock.set(at(day, 10));
      const combo = drawCombo(dailySecretOf(h.config), day);
      expect(new Set(combo).size).toBe(3);
      expect(combo.every((k) => k >= 4 && k <= economy.dailyComboPoolLastKey)).toBe(true);
      // Another secret draws another sequence of combos and words.
      const other = Buffer.from('another secret of sixteen+ chars');
      const days = Array.from({ length: 20 }, (_, i) => day + i);
      expect(days.map((d) => drawCombo(other, d).join())).not.toEqual(days.map((d) => drawCombo(dailySecretOf(h.config), d).join()));
      expect(days.map((d) => drawCipher(other, d))).not.toEqual(days.map((d) => drawCipher(dailySecretOf(h.config), d)));
      const id = await richPlayer();
      for (const key of combo) await upgrade(id, key);
      expect((await status(id)).daily!.combo).toMatchObject({ found: combo, complete: true });
      const stored = await h.db.query<{ combo: number[] }>('SELECT combo FROM daily_puzzles WHERE day = $1', [day]);
      expect(stored.rows[0]!.combo.map(Number)).toEqual(combo);
    });
  });

  describe('cipher', () => {
    it('pays once for the right word, in any case, and refuses a second solve', async () => {
      const day = dayOf2027(80);
      h.clock.set(at(day, 7));
      await setPuzzle(day, [4, 5, 6], 'VAULT');
      const id = await h.newPlayer();
      const answers = await Promise.all(Array.from({ length: 6 }, () => guess(id, 'vault')));
      const ok = answers.filter((r) => r.statusCode === 200);
      expect(ok).toHaveLength(1);
      expect(ok[0]!.json<CipherGuessResult>()).toMatchObject({ correct: true, claimed: String(economy.dailyCipherRewardMoney) });
      for (const r of answers.filter((x) => x.statusCode !== 200)) expect(r.json<ErrorBody>()).toMatchObject({ code: 'dailyCipherSolved', field: 'word' });
      await expectMoney(h.db, id, economy.dailyCipherRewardMoney);
      expect((await status(id)).daily!.cipher).toMatchObject({ solved: true });
      // The next day is a new word and a new chance.
      await setPuzzle(day + 1, [4, 5, 6], 'TOKEN');
      h.clock.set(at(day + 1, 1));
      expect((await status(id)).daily!.cipher).toMatchObject({ solved: false, guessesLeft: economy.dailyCipherGuessesPerDay });
      expect((await guess(id, 'TOKEN')).json<CipherGuessResult>().correct).toBe(true);
      await expectMoney(h.db, id, 2 * economy.dailyCipherRewardMoney);
    });

    it('says a wrong guess is wrong and nothing more, and allows only so many a day', async () => {
      const day = dayOf2027(90);
      h.clock.set(at(day, 15));
      await setPuzzle(day, [4, 5, 6], 'QUIXOTIC');
      const id = await h.newPlayer();
      for (let n = 1; n <= economy.dailyCipherGuessesPerDay; n++) {
        const r = await guess(id, 'QUIXOTIX');
        expect(r.statusCode).toBe(200);
        const body = r.json<CipherGuessResult>();
        expect(body).toMatchObject({ correct: false, claimed: '0' });
        expect(body.status.daily!.cipher.guessesLeft).toBe(economy.dailyCipherGuessesPerDay - n);
        expect(r.body).not.toMatch(/QUIXOTIC/i);
      }
      // Limited: even the right word is refused until tomorrow, and nothing is counted.
      const limited = await guess(id, 'QUIXOTIC');
      expect(limited.statusCode).toBe(429);
      expect(limited.json<ErrorBody>()).toMatchObject({ code: 'dailyCipherLimit', field: 'word' });
      expect(limited.body).not.toMatch(/QUIXOTIC/i);
      await expectMoney(h.db, id, 0);
      h.clock.set(dayStartMs(day + 1) + 1);
      await setPuzzle(day + 1, [4, 5, 6], 'QUIXOTIC');
      expect((await guess(id, 'QUIXOTIC')).json<CipherGuessResult>().correct).toBe(true);
    });

    it('refuses a malformed guess with a 4xx naming the field, and counts nothing', async () => {
      const day = dayOf2027(100);
      h.clock.set(at(day, 15));
      const id = await h.newPlayer();
      for (const word of ['', 'TWO WORDS', 'ÄPFEL', 'A'.repeat(economy.dailyCipherMaxLetters + 1), 42, null, ['CASH']]) {
        const r = await guess(id, word);
        expect(r.statusCode).toBe(400);
        expect(r.json<ErrorBody>().field).toBe('word');
      }
      const extra = await h.call('POST', '/daily/cipher', id, { body: { word: 'CASH', hint: true } });
      expect(extra.json<ErrorBody>()).toMatchObject({ code: 'unknownParameter', field: 'hint' });
      expect((await h.call('POST', '/daily/cipher', id, { body: {} })).json<ErrorBody>()).toMatchObject({ code: 'requiredParameter', field: 'word' });
      expect((await status(id)).daily!.cipher.guessesLeft).toBe(economy.dailyCipherGuessesPerDay);
      const counted = await h.db.query<{ n: string }>('SELECT COALESCE(sum(cipher_misses), 0)::text AS n FROM daily_counts WHERE day = $1', [day]);
      expect(counted.rows[0]!.n).toBe('0');
    });
  });

  describe('secrets', () => {
    it('never sends the combo or the word before they are found: status, clicks, claims, upgrades and the OpenAPI document', async () => {
      const day = dayOf2027(110);
      h.clock.set(at(day, 12));
      const word = 'XYLOPHQZ';
      await setPuzzle(day, [7, 8, 10], word);
      const id = await richPlayer();
      const answers = [
        await h.call('GET', '', id),
        await h.call('POST', '/click', id, { body: { click: 3 } }),
        await h.call('POST', '/claim', id),
        await upgrade(id, 4),
        await upgrade(id, 8),
        await claimStreak(id),
        await guess(id, 'WRONG'),
        await h.call('POST', '/daily/reminders', id, { body: { on: false } }),
        await h.app.inject({ method: 'GET', url: '/money/api/v1/airdrop/openapi.json' }),
      ];
      for (const r of answers) {
        expect(r.statusCode).toBe(200);
        expect(r.body).not.toMatch(new RegExp(word, 'i'));
        const daily = (JSON.parse(r.body) as { daily?: UserStatus['daily']; status?: UserStatus }).daily ?? (JSON.parse(r.body) as { status?: UserStatus }).status?.daily;
        // The only combo card any answer names is the one found (8), never 7 or 10.
        if (daily !== undefined) expect(daily.combo.found.every((k) => k === 8)).toBe(true);
        expect(r.body).not.toMatch(/"combo":\s*\[/);
      }
    });
  });
});
