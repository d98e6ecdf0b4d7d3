/**
 * The snapshot pays only eligible players (docs/airdrop.md "Exclusions"): players an operator
 * excluded after the integrity review are left out, the round records how many and for which
 * reasons, and their MONEY is left unminted or redistributed pro rata, exact to the jetton unit.
 */
import { describe, expect, it } from 'vitest';
import { apiPrefix } from '../../engine/wire/api-types.ts';
import { integrityRulesOf } from '../../server/integrity/rules.ts';
import { refreshIntegrity } from '../../server/integrity/signals-job.ts';
import { openSignedInAdmin, operatorKey } from './admin-harness.ts';
import { setBalances } from './db-helpers.ts';
import { backends, openForSuite } from './harness.ts';

const units = 1_000_000_000n;
let freshId = 8_610_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
let walletSeq = 0;

/** Largest remainder, written independently of the SQL: floor shares, then one unit each to the largest remainders (ties by address). */
const redistribute = (eligible: { address: string; amount: bigint }[], excluded: bigint): Map<string, bigint> => {
  const total = eligible.reduce((s, e) => s + e.amount, 0n);
  const shares = eligible.map((e) => ({ ...e, base: (excluded * e.amount) / total, rem: (excluded * e.amount) % total }));
  let left = excluded - shares.reduce((s, e) => s + e.base, 0n);
  const order = [...shares].sort((a, b) => (a.rem === b.rem ? (a.address < b.address ? -1 : 1) : a.rem > b.rem ? -1 : 1));
  const out = new Map(shares.map((e) => [e.address, e.amount + e.base]));
  for (const e of order) {
    if (left === 0n) break;
    out.set(e.address, out.get(e.address)! + 1n);
    left--;
  }
  return out;
};

describe.each(backends)('the snapshot and the integrity review (%s)', (backend) => {
  const h = openForSuite(() => openSignedInAdmin(backend));
  const byKey = (payload: object) => h.app.inject({ method: 'POST', url: `${apiPrefix}/public/airdrop/snapshot`, headers: { 'x-api-key': operatorKey }, payload });
  const player = async (money: string): Promise<{ id: number; address: string }> => {
    const id = await h.newPlayer({ id: freshId++ });
    await setBalances(h.db, id, { totalMoney: money });
    const address = `0:${(++walletSeq).toString(16).padStart(64, '0')}`;
    await h.db.query("INSERT INTO ton_wallets (user_id, address, public_key, wallet_version, linked_at_ms) VALUES ($1, $2, $3, 'v4R2', $4)", [id, address, 'cd'.repeat(32), h.clock.now()]);
    return { id, address };
  };
  const allocations = async (round: number) =>
    new Map((await h.db.query<{ address: string; amount: string }>('SELECT address, amount::text FROM airdrop_allocations WHERE round = $1', [round])).rows.map((r) => [r.address, BigInt(r.amount)]));

  it('leaves excluded players out, on the record, and pays the rest exactly, with the excluded MONEY unminted or redistributed', async () => {
    const paid = [await player('12.5'), await player('7777'), await player('0.01'), await player('333.33')];
    const excluded = [await player('300'), await player('50.55')];
    const reviewed = await player('100');
    // The excluded and the reviewed player send batches no mini-app would (no device id): reviewed.
    for (const p of [...excluded, reviewed]) expect((await h.call('POST', '/click', p.id, { body: { click: 3 } })).statusCode).toBe(200);
    h.clock.advance(61_000);
    await refreshIntegrity(h.db, h.clock.now(), integrityRulesOf(h.config));
    for (const p of excluded) {
      const r = await h.admin('POST', `/integrity/players/${p.id}/decision`, h.session, { body: { decision: 'exclude', note: 'scripted client' } });
      expect(r.statusCode, r.body).toBe(200);
    }
    const startFrom = Math.floor(h.clock.now() / 1000);

    // Refused: nothing written.
    for (const bad of ['burn', '', 1]) {
      const r = await byKey({ round: 11, startFrom, expireAt: startFrom + 86_400, excludedMoney: bad });
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({ field: 'excludedMoney' });
    }
    expect((await h.db.query('SELECT 1 FROM airdrop_rounds WHERE round = 11')).rows).toEqual([]);

    const unminted = await byKey({ round: 11, startFrom, expireAt: startFrom + 86_400 });
    expect(unminted.statusCode, unminted.body).toBe(201);
    const excludedUnits = (300n + 50n) * units + 550_000_000n;
    expect(unminted.json()).toMatchObject({ excludedMoney: 'unminted', excludedPlayers: 2, excludedAmount: String(excludedUnits), excludedReasons: { apiClient: 2 } });
    const one = await allocations(11);
    // The undecided review stays in: an operator decides before the snapshot.
    expect([...one.keys()].sort()).toEqual([...paid, reviewed].map((p) => p.address).sort());
    const eligibleTotal = (12n * units + 500_000_000n) + 7777n * units + 10_000_000n + (333n * units + 330_000_000n) + 100n * units;
    expect(unminted.json<{ totalAmount: string }>().totalAmount).toBe(String(eligibleTotal));
    const exclusions = await h.db.query<{ user_id: string; amount: string; reasons: string[] }>('SELECT user_id::text, amount::text, reasons FROM airdrop_exclusions WHERE round = 11 ORDER BY user_id');
    expect(exclusions.rows).toEqual([
      { user_id: String(excluded[0]!.id), amount: String(300n * units), reasons: ['apiClient'] },
      { user_id: String(excluded[1]!.id), amount: String(50n * units + 550_000_000n), reasons: ['apiClient'] },
    ]);
    // A built round keeps its choice: asking for the other one is a 409 naming it.
    const other = await byKey({ round: 11, startFrom, expireAt: startFrom + 86_400, excludedMoney: 'redistributed' });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ field: 'excludedMoney', code: 'excludedMoneyDiffers' });

    const viaConsole = await h.admin('POST', '/airdrop/snapshot', h.session, { body: { round: 12, startFrom, expireAt: startFrom + 86_400, excludedMoney: 'redistributed' } });
    expect(viaConsole.statusCode, viaConsole.body).toBe(200);
    expect(viaConsole.json()).toMatchObject({ excludedMoney: 'redistributed', excludedPlayers: 2, totalAmount: String(eligibleTotal + excludedUnits) });
    const two = await allocations(12);
    const expected = redistribute([...one].map(([address, amount]) => ({ address, amount })), excludedUnits);
    expect(two).toEqual(expected);
    expect([...two.values()].reduce((s, a) => s + a, 0n)).toBe(eligibleTotal + excludedUnits);
    for (const [address, amount] of one) expect(two.get(address)! >= amount).toBe(true);
  });
});

describe('largest remainder (the test’s own reference)', () => {
  it('splits 10 units over three equal amounts as 4, 3, 3, the unit left to the first address', () => {
    const r = redistribute(
      [
        { address: 'a', amount: 1n },
        { address: 'b', amount: 1n },
        { address: 'c', amount: 1n },
      ],
      10n,
    );
    expect([...r.values()]).toEqual([5n, 4n, 4n]);
  });
});
