import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeAirdropSnapshot } from '../../server/airdrop/take-snapshot.ts';
import { operatorKeyActor } from '../../server/audit/exports.ts';
import { setBalances } from './db-helpers.ts';
import { backends, openHarness, type Harness } from './harness.ts';

/** docs/airdrop.md "Bought boosts": the snapshot follows AIRDROP_COUNTS_BOUGHT_BOOSTS (off by default). */
describe.each(backends)('MONEY earned through bought boosts in the snapshot (%s)', (backend) => {
  let h: Harness;
  let id: number;
  beforeAll(async () => {
    h = await openHarness(backend);
    id = await h.newPlayer();
    await setBalances(h.db, id, { totalMoney: '100' });
    // 40 of the 100 came from achievements only bought taps reached.
    await h.db.query('UPDATE users SET bought_money = 40 WHERE id = $1', [id]);
    await h.db.query("INSERT INTO ton_wallets (user_id, address, public_key, wallet_version, linked_at_ms) VALUES ($1, $2, 'ab', 'v4R2', 0)", [id, `0:${randomBytes(32).toString('hex')}`]);
  });
  afterAll(async () => {
    await h?.close();
  });
  const allocation = async (round: number) =>
    (await h.db.query<{ amount: string }>('SELECT amount::text AS amount FROM airdrop_allocations WHERE round = $1 AND user_id = $2', [round, id])).rows[0]?.amount;
  const dates = (nowS: number) => ({ startFrom: nowS + 60, expireAt: nowS + 86_400 * 30 });

  it('leaves it out by default, and counts it when the operator says so', async () => {
    const nowS = Math.floor(h.clock.now() / 1000);
    await takeAirdropSnapshot({ db: h.db }, operatorKeyActor, { round: 901, ...dates(nowS) }, h.clock.now());
    expect(await allocation(901)).toBe('60000000000');
    expect(h.config.AIRDROP_COUNTS_BOUGHT_BOOSTS).toBe(false);
    await takeAirdropSnapshot({ db: h.db, countsBoughtBoosts: true }, operatorKeyActor, { round: 902, ...dates(nowS) }, h.clock.now());
    expect(await allocation(902)).toBe('100000000000');
  });
});
