import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClickResult, UserStatus } from '../../engine/wire/api-types.ts';
import { money } from '../../engine/rules/money.ts';
import { ledgerMatchesBalances } from './db-helpers.ts';
import { backends, openHarness, type Harness } from './harness.ts';

/** mulberry32: a tiny seeded PRNG, so a failing session can be replayed from its seed. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};

describe.each(backends)('seeded random session (%s)', (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness(backend, {
      verifyCaptcha: async () => true,
      checkExchange: async (_t, uid) => uid.startsWith('ok'),
      countChannelBoosts: async () => 3,
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('keeps every ledger equal to its balance, balances ≥ 0, and clicks counted once', async () => {
    const seed = 20_260_115;
    const rand = prng(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const users = Array.from({ length: 8 }, () => h.newUserId());
    const refcodes = new Map<number, string>();
    for (const u of users) refcodes.set(u, (await h.call('GET', '', u)).json<UserStatus>().refcode);
    const accepted = new Map(users.map((u) => [u, 0]));
    let batch = 0;

    for (let step = 0; step < 250; step++) {
      const u = pick(users);
      const action = rand();
      if (action < 0.4) {
        // Several batches at once, some replayed.
        const sends = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => {
          const id = rand() < 0.2 && batch > 0 ? `b${batch - 1}` : `b${batch++}`;
          return h.call('POST', '/click', u, { body: { click: 1 + Math.floor(rand() * 60), batchId: `${u}-${id}` } });
        });
        const answers = await Promise.all(sends);
        // Replays answer the first answer: one accepted count per batchId.
        const firsts = new Map<string, number>();
        for (const a of answers) {
          expect(a.statusCode).toBe(200);
          const body = a.json<ClickResult>();
          expect(firsts.get(body.batchId!) ?? body.accepted).toBe(body.accepted);
          firsts.set(body.batchId!, body.accepted);
        }
      } else if (action < 0.55) await h.call('POST', '/claim', u);
      else if (action < 0.75) await h.call('POST', '/update-level', u, { body: { levelKey: pick([1, 2, 3, 4, 4, 5, 6]) } });
      else if (action < 0.8) await h.call('POST', '/claim-welcome-rw', u);
      else if (action < 0.83) await h.call('POST', '/claim-easter-egg-rw', u);
      else if (action < 0.88) await h.call('POST', '/referral', u, { query: { refcode: refcodes.get(pick(users))! } });
      else if (action < 0.93) await h.call('POST', '/claim-task', u, { query: { task_id: String(pick([1, 2, 6, 7, 11, 21, 31])) }, body: { captchaToken: 't', inputValue: `ok${u}` } });
      else await h.call('POST', '/update-ref-level', u, { query: { level: '2' } });
      h.clock.advance(Math.floor(rand() * 20_000));
    }

    // Clicks: the stored total equals the accepted batches recorded, each batchId once.
    const batches = await h.db.query<{ user_id: number; n: string }>('SELECT user_id, sum(accepted)::text AS n FROM click_batches GROUP BY user_id');
    for (const b of batches.rows) accepted.set(b.user_id, Number(b.n));
    for (const u of users) {
      const s = (await h.call('GET', '', u)).json<UserStatus>();
      expect(s.totalClick).toBe(accepted.get(u));
      expect(money(s.totalEarn).gte(0)).toBe(true);
      expect(money(s.totalMoney).gte(0)).toBe(true);
    }
    expect(await ledgerMatchesBalances(h.db, users)).toBe(true);
    // No cycles in the referral graph.
    const cyc = await h.db.query(`WITH RECURSIVE c(start, id, d) AS (
        SELECT id, referred_by, 1 FROM users WHERE referred_by IS NOT NULL
        UNION ALL SELECT c.start, u.referred_by, d + 1 FROM c JOIN users u ON u.id = c.id WHERE u.referred_by IS NOT NULL AND d < 50)
      SELECT 1 FROM c WHERE id = start`);
    expect(cyc.rows).toHaveLength(0);
  });
});
