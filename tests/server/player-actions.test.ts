import { describe, expect, it } from 'vitest';
import type { ClaimResult, ClickResult, UserStatus } from '../../engine/wire/api-types.ts';
import { economy } from '../../engine/rules/economy.ts';
import { money } from '../../engine/rules/money.ts';
import { passiveAccrued } from '../../engine/rules/passive.ts';
import { priceOf } from '../../engine/rules/prices.ts';
import { welcomeReward } from '../../engine/rules/rewards.ts';
import { backends, openHarness, openForSuite } from './harness.ts';
import { pruneClickBatches } from '../../server/clicks/click-batcher.ts';
import { ledgerMatchesBalances, setBalances } from './db-helpers.ts';

/**
 * The tap rule at energy level 1 (docs/rules.md §3–§4), modelled on its own: energy regenerates 1
 * every 5 s below 500, and a full bar starts its 5 s when it is first spent; a tap spends 1; a batch
 * counts at most 20 taps a second since the tap clock plus a burst of 40, idle time earning at most
 * 10 s of credit; the tap clock moves 50 ms per tap counted.
 */
const tapModel = (startMs: number) => {
  const max = 500;
  let energy = max;
  let regenFromMs = startMs;
  let tapClockMs = startMs;
  const regenerate = (nowMs: number) => {
    const ticks = energy < max ? Math.floor((nowMs - regenFromMs) / 5_000) : 0;
    energy = Math.min(max, energy + ticks);
    regenFromMs = energy >= max ? nowMs : regenFromMs + ticks * 5_000;
  };
  return {
    energyAt: (nowMs: number): number => (energy >= max ? max : Math.min(max, energy + Math.floor((nowMs - regenFromMs) / 5_000))),
    tap: (taps: number, nowMs: number): number => {
      regenerate(nowMs);
      const creditFromMs = Math.max(tapClockMs, nowMs - 10_000);
      const accepted = Math.min(taps, energy, Math.floor((nowMs - creditFromMs) / 50) + 40);
      energy -= accepted;
      tapClockMs = creditFromMs + accepted * 50;
      return accepted;
    },
  };
};

describe.each(backends)('player actions: taps, claims, purchases (%s)', (backend) => {
  const h = openForSuite(() => openHarness(backend));

  const status = async (id: number) => (await h.call('GET', '', id)).json<UserStatus>();
  const click = (id: number, n: number, batchId?: string) => h.call('POST', '/click', id, { body: { click: n, ...(batchId ? { batchId, seq: 1 } : {}) } });

  describe('click', () => {
    it('credits fingerLevel per accepted tap and spends energy', async () => {
      const id = h.newUserId();
      await status(id);
      const r = await click(id, 30, 'b1');
      expect(r.statusCode).toBe(200);
      const body = r.json<ClickResult>();
      expect(body).toMatchObject({ batchId: 'b1', accepted: 30 });
      expect(body.status.totalEarn).toBe('30');
      expect(body.status.totalClick).toBe(30);
      expect(body.status.availableEnergy).toBe(470);
    });

    it('caps a batch by the human-rate allowance', async () => {
      const id = h.newUserId();
      await status(id);
      const r = (await click(id, 400, 'big')).json<ClickResult>();
      expect(r.accepted).toBe(economy.humanTapBurst);
      h.clock.advance(1_000);
      expect((await click(id, 400, 'big2')).json<ClickResult>().accepted).toBe(economy.humanTapsPerSecond);
    });

    it('caps a batch by energy, accepts nothing at 0 energy, and regenerates 1 per 5 s', async () => {
      const id = h.newUserId();
      await status(id);
      // An independent model of the rule, written from docs/rules.md §3–§4 and not from engine/rules/clicks.ts.
      const model = tapModel(h.clock.now());
      for (let i = 0; i < 12; i++) {
        h.clock.advance(i % 3 === 0 ? 10_000 : 700);
        const accepted = model.tap(300, h.clock.now());
        const r = (await click(id, 300, `e${i}`)).json<ClickResult>();
        expect(r.accepted).toBe(accepted);
        expect(r.status.availableEnergy).toBe(model.energyAt(h.clock.now()));
      }
      expect(model.energyAt(h.clock.now())).toBeLessThan(50);
      const empty = h.newUserId();
      await status(empty);
      await h.db.query('UPDATE users SET energy = 0, energy_at_ms = $2 WHERE id = $1', [empty, h.clock.now()]);
      expect((await click(empty, 5, 'none')).json<ClickResult>().accepted).toBe(0);
      h.clock.advance(5 * economy.energyRegenIntervalMs);
      expect((await click(empty, 50, 'some')).json<ClickResult>().accepted).toBe(5);
    });

    it('answers a replayed batchId with the first answer and credits nothing twice', async () => {
      const id = h.newUserId();
      await status(id);
      const first = (await click(id, 12, 'dup')).json<ClickResult>();
      const again = (await click(id, 25, 'dup')).json<ClickResult>();
      expect(again.accepted).toBe(first.accepted);
      expect(again.status.totalEarn).toBe('12');
      // Concurrent replays of one new batchId: still counted once.
      const many = await Promise.all(Array.from({ length: 10 }, () => click(id, 7, 'race')));
      expect(new Set(many.map((r) => r.json<ClickResult>().accepted))).toEqual(new Set([7]));
      expect((await status(id)).totalClick).toBe(19);
      expect(await ledgerMatchesBalances(h.db, [id])).toBe(true);
    });

    it('forgets batch ids after the idempotency window (pruneClickBatches)', async () => {
      const id = h.newUserId();
      await status(id);
      await click(id, 3, 'old');
      h.clock.advance(8 * 24 * 3_600_000);
      expect(await pruneClickBatches(h.db, h.clock.now())).toBeGreaterThan(0);
      const left = await h.db.query('SELECT 1 FROM click_batches WHERE user_id = $1', [id]);
      expect(left.rows).toHaveLength(0);
    });

    it.each([
      [{}, 'click'],
      [{ click: 1.5 }, 'click'],
      [{ click: '5' }, 'click'],
      [{ click: 0 }, 'click'],
      [{ click: -3 }, 'click'],
      [{ click: 5, extra: 1 }, 'extra'],
      [{ click: 5, batchId: 'has space' }, 'batchId'],
    ])('refuses %j naming the field, changing nothing', async (payload, field) => {
      const id = h.newUserId();
      await status(id);
      const r = await h.call('POST', '/click', id, { body: payload });
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({ error: 'Bad Request', field });
      expect((await status(id)).totalClick).toBe(0);
    });

    it('refuses 1e309, __proto__ and a missing body', async () => {
      const id = h.newUserId();
      await status(id);
      const raw = (payload: string) =>
        h.app.inject({ method: 'POST', url: '/money/api/v1/airdrop/click', headers: { authorization: h.initData(id), 'content-type': 'application/json' }, payload });
      expect((await raw('{"click":1e309}')).statusCode).toBe(400);
      expect((await raw('{"click":5,"__proto__":{"x":1}}')).statusCode).toBe(400);
      expect((await raw('')).statusCode).toBe(400);
      expect((await raw('{"click":')).json()).toMatchObject({ error: 'Bad Request' });
      expect((await status(id)).totalClick).toBe(0);
    });
  });

  describe('claim (passive income)', () => {
    it('credits passive income since the last claim, capped at 3 h', async () => {
      const id = h.newUserId();
      await status(id);
      await setBalances(h.db, id, { levels: { 4: 2, 5: 1 } });
      h.clock.advance(60_000);
      const levels = { 4: 2, 5: 1 };
      const s0 = await status(id);
      expect(s0.offlinePassiveReward).toBe(passiveAccrued(levels, s0.lastClaimedTime, h.clock.now()).toFixed());
      const r = (await h.call('POST', '/claim', id)).json<ClaimResult>();
      expect(r.claimed).toBe('420');
      expect(r.status.lastClaimedTime).toBe(h.clock.now());
      h.clock.advance(10 * 3_600_000);
      const capped = (await h.call('POST', '/claim', id)).json<ClaimResult>();
      expect(capped.claimed).toBe(money(7).times(3 * 3_600).toFixed());
      expect(await ledgerMatchesBalances(h.db, [id])).toBe(true);
    });

    it('50 concurrent claims credit the accrual once', async () => {
      const id = h.newUserId();
      await status(id);
      await setBalances(h.db, id, { levels: { 4: 1 } });
      h.clock.advance(100_000);
      const answers = await Promise.all(Array.from({ length: 50 }, () => h.call('POST', '/claim', id)));
      expect(answers.every((a) => a.statusCode === 200)).toBe(true);
      const claimed = answers.map((a) => money(a.json<ClaimResult>().claimed));
      expect(claimed.reduce((a, b) => a.plus(b), money(0)).toFixed()).toBe('200');
      expect((await status(id)).totalEarn).toBe('200');
      expect(await ledgerMatchesBalances(h.db, [id])).toBe(true);
    });
  });

  describe('update-level', () => {
    it('buys a level at the engine price, after claiming passive income', async () => {
      const id = h.newUserId();
      await status(id);
      await setBalances(h.db, id, { totalEarn: '1000', levels: { 4: 1 } });
      h.clock.advance(10_000);
      const r = await h.call('POST', '/update-level', id, { body: { levelKey: 1 } });
      expect(r.statusCode).toBe(200);
      const s = r.json<UserStatus>();
      expect(s.fingerLevel).toBe(2);
      // 1000 + 10 s × 2/s passive − price of Handheld at level 1.
      expect(s.totalEarn).toBe(money(1020).minus(priceOf(1, 1)).toFixed());
      const item = (await h.call('POST', '/update-level', id, { body: { levelKey: 4 } })).json<UserStatus>();
      expect(item.passiveEarnLevel['4']).toBe(2);
      expect(await ledgerMatchesBalances(h.db, [id])).toBe(true);
    });

    it('raises max energy without back-dating regeneration', async () => {
      const id = h.newUserId();
      await status(id);
      await setBalances(h.db, id, { totalEarn: '100000' });
      h.clock.advance(3_600_000);
      const s = (await h.call('POST', '/update-level', id, { body: { levelKey: 2 } })).json<UserStatus>();
      expect(s.energyLevel).toBe(2);
      expect(s.availableEnergy).toBe(500);
    });

    it('refuses an unaffordable, a locked and a max-level purchase with a clear message, changing nothing', async () => {
      const id = h.newUserId();
      await status(id);
      const poor = await h.call('POST', '/update-level', id, { body: { levelKey: 1 } });
      expect(poor.statusCode).toBe(400);
      expect(poor.json().message).toMatch(/Not enough money/);
      await setBalances(h.db, id, { totalEarn: '1000000' });
      const locked = await h.call('POST', '/update-level', id, { body: { levelKey: 9 } });
      expect(locked.json()).toMatchObject({ field: 'levelKey', message: expect.stringMatching(/locked/) });
      await h.db.query('UPDATE users SET finger_level = $2 WHERE id = $1', [id, economy.startingFingerLevel + 5058]);
      const max = await h.call('POST', '/update-level', id, { body: { levelKey: 1 } });
      expect(max.json().message).toMatch(/maximum level/);
      expect((await status(id)).totalEarn).toBe('1000000');
      for (const bad of [{ levelKey: 22 }, { levelKey: 0 }, { levelKey: 1.5 }, {}, { levelKey: '1' }]) {
        const r = await h.call('POST', '/update-level', id, { body: bad });
        expect(r.statusCode).toBe(400);
        expect(r.json().field).toBe('levelKey');
      }
    });

    it('rolls back the passive claim of a refused purchase', async () => {
      const id = h.newUserId();
      await status(id);
      await setBalances(h.db, id, { levels: { 4: 1 } });
      const before = await status(id);
      h.clock.advance(60_000);
      const r = await h.call('POST', '/update-level', id, { body: { levelKey: 21 } });
      expect(r.statusCode).toBe(400);
      const after = await status(id);
      expect(after.lastClaimedTime).toBe(before.lastClaimedTime);
      expect(after.totalEarn).toBe(before.totalEarn);
      expect(after.offlinePassiveReward).toBe('120');
    });

    it('50 concurrent purchases with money for one: exactly one succeeds', async () => {
      const id = h.newUserId();
      await status(id);
      const price = priceOf(3, 0);
      await setBalances(h.db, id, { totalEarn: price.plus(price.times(1.5)).minus(1).toFixed() });
      const answers = await Promise.all(Array.from({ length: 50 }, () => h.call('POST', '/update-level', id, { body: { levelKey: 3 } })));
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
      const s = await status(id);
      expect(s.passiveEarnLevel['3']).toBe(1);
      expect(s.totalEarn).toBe(price.times(1.5).minus(1).toFixed());
      expect(await ledgerMatchesBalances(h.db, [id])).toBe(true);
    });
  });

  describe('one-off rewards', () => {
    it('pays the welcome reward once', async () => {
      const id = h.newUserId();
      const s0 = await status(id);
      const r = await h.call('POST', '/claim-welcome-rw', id);
      expect(r.statusCode).toBe(200);
      const s = r.json<UserStatus>();
      expect(s.isClaimedWelcome).toBe(true);
      expect(s.totalMoney).toBe(String(welcomeReward(s0.teleAge, s0.twAge, s0.isPremium)));
      expect(s.pendingClaimReward).toBe('0');
      const again = await h.call('POST', '/claim-welcome-rw', id);
      expect(again.statusCode).toBe(409);
      expect((await status(id)).totalMoney).toBe(s.totalMoney);
    });

    it('pays the Easter egg once; the second claim says "You have claimed reward!"', async () => {
      const id = h.newUserId();
      await status(id);
      const [a, b] = await Promise.all([h.call('POST', '/claim-easter-egg-rw', id), h.call('POST', '/claim-easter-egg-rw', id)]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
      const loser = a.statusCode === 409 ? a : b;
      expect(loser.json().message).toBe('You have claimed reward!');
      expect((await status(id)).totalMoney).toBe(String(economy.easterEggRewardMoney));
    });

    it('stores the forecast once and refuses bad days', async () => {
      const id = h.newUserId();
      expect((await status(id)).preWlComing).toBe(0);
      const ok = await h.call('POST', '/set-predict-wallet-coming', id, { query: { days: '42' } });
      expect(ok.json<UserStatus>().preWlComing).toBe(42);
      const twice = await h.call('POST', '/set-predict-wallet-coming', id, { query: { days: '7' } });
      expect(twice.statusCode).toBe(409);
      const other = h.newUserId();
      for (const days of ['', '0', '1.5', 'abc', '1e309', '-1']) {
        const r = await h.call('POST', '/set-predict-wallet-coming', other, { query: { days } });
        expect(r.statusCode).toBe(400);
        expect(r.json().field).toBe('days');
      }
      expect((await h.call('POST', '/set-predict-wallet-coming', other)).json()).toMatchObject({ field: 'days', message: expect.stringMatching(/days/) });
      expect((await status(id)).preWlComing).toBe(42);
    });
  });
});
