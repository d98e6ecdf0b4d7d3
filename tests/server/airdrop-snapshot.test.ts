import { Address, beginCell, Cell, contractAddress, crc16, Dictionary, exoticMerkleProof, loadStateInit, type DictionaryValue } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WalletInfo } from '../../engine/wire/api-types.ts';
import type { AirdropItem } from '../../server/airdrop/airdrop-tree.ts';
import { createServedRound } from '../../server/airdrop/served-round.ts';
import { manualClock } from '../../server/core/clock.ts';
import { signedLink, testWallet, walletCodes, type TestWallet } from '../fixtures/ton-wallets.ts';
import { setBalances } from './db-helpers.ts';
import { backends, harnessOn, type Harness } from './harness.ts';
import { domain, openWalletHarness } from './wallet-harness.ts';

const itemValue: DictionaryValue<AirdropItem> = {
  serialize: (v, b) => {
    b.storeCoins(v.amount).storeUint(v.startFrom, 48).storeUint(v.expireAt, 48);
  },
  parse: (s) => ({ amount: s.loadCoins(), startFrom: s.loadUint(48), expireAt: s.loadUint(48) }),
};

const master = Address.parseRaw(`0:${'ab'.repeat(32)}`);
// A jetton wallet code: the master only hashes it, so any cell will do.
const walletCode = Cell.fromBase64(walletCodes.v3R2);

/** The first salt in 0…32 whose wallet has the owner's top 4 address bits (the reference master's shard rule), or null. */
const firstSaltInShard = (owner: Address, merkleRoot: bigint): number | null => {
  for (let salt = 0; salt <= 32; salt++) {
    const data = beginCell().storeUint(0, 4).storeCoins(0).storeAddress(owner).storeAddress(master).storeUint(merkleRoot, 256).storeUint(salt, 10).endCell();
    if (contractAddress(0, { code: walletCode, data }).hash[0]! >> 4 === owner.hash[0]! >> 4) return salt;
  }
  return null;
};
const round = { round: 1, startFrom: 1_768_000_000, expireAt: 1_800_000_000 };

interface ClaimAnswer {
  owner: string;
  custom_payload: string;
  compressed_info: { amount: string; start_from: string; expired_at: string };
  jetton_wallet?: string;
  state_init?: string;
}

describe.each(backends)('the airdrop snapshot and the TEP-176 claim API (%s)', (backend) => {
  let h: Harness;
  const players: { id: number; wallet: TestWallet | null; money: string; frozen: boolean }[] = [];
  beforeAll(async () => {
    // The jetton wallet code and the master: the API adds the jetton wallet.
    h = await openWalletHarness(backend, { JETTON_MASTER_ADDRESS: master.toString(), JETTON_WALLET_CODE: walletCode.toBoc().toString('base64') });
    const plan: [string, boolean, boolean?][] = [
      ['12.5', true],
      ['7777', true],
      ['0.01', true],
      ['0', true], // balance 0: not eligible
      ['50', false], // no wallet: not eligible
      ['300', true, true], // frozen by an operator: not eligible (docs/rules.md §14)
    ];
    for (const [money, linked, frozen = false] of plan) {
      const id = h.newUserId();
      await h.call('GET', '', id);
      await setBalances(h.db, id, { totalMoney: money });
      let wallet: TestWallet | null = null;
      if (linked) {
        wallet = testWallet();
        const payload = (await h.call('POST', '/wallet/ton-proof-payload', id)).json<{ payload: string }>().payload;
        const r = await h.call('POST', '/wallet/link', id, { body: signedLink(wallet, { payload, domain, timestampS: Math.floor(h.clock.now() / 1000) }) });
        expect(r.statusCode, r.body).toBe(200);
      }
      if (frozen) await h.db.query('UPDATE users SET frozen_at = now() WHERE id = $1', [id]);
      players.push({ id, wallet, money, frozen });
    }
  });
  afterAll(async () => {
    await h?.close();
  });

  const snapshot = (body: object, key: string | null = 'operator-key') =>
    h.app.inject({ method: 'POST', url: '/money/api/v1/airdrop/public/airdrop/snapshot', headers: key === null ? {} : { 'x-api-key': key }, payload: body });
  const claim = (address: string) => h.call('GET', `/jetton/wallet/${encodeURIComponent(address)}`, null);
  const eligible = () => players.filter((p) => p.wallet !== null && p.money !== '0' && !p.frozen);

  it('refuses the operator call without the key, and a bad body, creating nothing', async () => {
    expect((await snapshot(round, null)).statusCode).toBe(400);
    expect((await snapshot(round, 'wrong')).statusCode).toBe(401);
    const nowS = Math.floor(h.clock.now() / 1000);
    // Claims closing before they open, or already closed (now is after round.startFrom): a round nobody could claim.
    for (const expireAt of [round.startFrom, round.startFrom - 1, nowS, nowS - 1]) {
      const bad = await snapshot({ ...round, expireAt });
      expect(bad.statusCode, String(expireAt)).toBe(400);
      expect(bad.json().field).toBe('expireAt');
    }
    expect((await h.db.query('SELECT 1 FROM airdrop_rounds')).rows).toHaveLength(0);
    expect((await h.db.query('SELECT 1 FROM airdrop_allocations')).rows).toHaveLength(0);
    expect((await h.db.query('SELECT 1 FROM airdrop_dict_chunks')).rows).toHaveLength(0);
    expect((await claim(eligible()[0]!.wallet!.address.toRawString())).statusCode).toBe(404);
  });

  it('freezes every eligible allocation (MONEY × 10^9) into a dictionary whose root @ton/core agrees with', async () => {
    const r = await snapshot(round);
    expect(r.statusCode, r.body).toBe(201);
    const s = r.json<{ merkleRoot: string; merkleRootInt: string; wallets: number; totalAmount: string; status: string }>();
    expect(s.status).toBe('built');
    expect(s.wallets).toBe(3);
    expect(s.totalAmount).toBe('7789510000000');
    const dict = Dictionary.empty(Dictionary.Keys.Address(), itemValue);
    for (const p of eligible()) dict.set(p.wallet!.address, { amount: BigInt(Math.round(Number(p.money) * 100)) * 10_000_000n, ...{ startFrom: round.startFrom, expireAt: round.expireAt } });
    const expected = beginCell().storeDictDirect(dict).endCell().hash();
    expect(s.merkleRoot).toBe(expected.toString('hex'));
    expect(BigInt(s.merkleRootInt)).toBe(BigInt(`0x${s.merkleRoot}`));
  });

  it('changes nothing when run again for the same round; other dates for it are a 409', async () => {
    const first = (await h.app.inject({ method: 'GET', url: '/money/api/v1/airdrop/public/airdrop/rounds/1', headers: { 'x-api-key': 'operator-key' } })).json();
    // A new eligible player after the snapshot is not added to the frozen round.
    const late = players.find((p) => p.wallet === null)!;
    const w = testWallet();
    const payload = (await h.call('POST', '/wallet/ton-proof-payload', late.id)).json<{ payload: string }>().payload;
    await h.call('POST', '/wallet/link', late.id, { body: signedLink(w, { payload, domain, timestampS: Math.floor(h.clock.now() / 1000) }) });
    const again = await snapshot(round);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ...first, created: false });
    const moved = await snapshot({ ...round, startFrom: round.startFrom + 1 });
    expect(moved.statusCode).toBe(409);
    expect(moved.json().field).toBe('startFrom');
    expect((await claim(w.address.toRawString())).statusCode).toBe(404);
  });

  it('answers the claim proof and compressed info for an address in the snapshot, verifying against the root', async () => {
    const root = (await snapshot(round)).json<{ merkleRoot: string }>().merkleRoot;
    for (const p of eligible()) {
      const owner = p.wallet!.address;
      // Raw and user-friendly forms name the same owner.
      for (const form of [owner.toRawString(), owner.toString({ bounceable: false })]) {
        const r = await claim(form);
        expect(r.statusCode, r.body).toBe(200);
        const a = r.json<ClaimAnswer>();
        expect(a.owner).toBe(owner.toRawString());
        const amount = BigInt(Math.round(Number(p.money) * 100)) * 10_000_000n;
        expect(a.compressed_info).toEqual({ amount: amount.toString(), start_from: String(round.startFrom), expired_at: String(round.expireAt) });
        const payload = Cell.fromBase64(a.custom_payload).beginParse();
        expect(payload.loadUint(32)).toBe(0x0df602d6);
        const proof = payload.loadRef();
        expect(exoticMerkleProof(proof.bits, proof.refs).proofHash.toString('hex')).toBe(root);
        const proven = Dictionary.loadDirect(Dictionary.Keys.Address(), itemValue, proof.refs[0]!.beginParse(true));
        expect(proven.get(owner)?.amount).toBe(amount);
        // The jetton wallet is the address of the state init answered with it.
        const init = loadStateInit(Cell.fromBase64(a.state_init!).beginParse());
        expect(init.code!.equals(walletCode)).toBe(true);
        expect(contractAddress(0, { code: init.code!, data: init.data! }).toRawString()).toBe(a.jetton_wallet);
        const data = init.data!.beginParse();
        data.skip(4);
        data.loadCoins();
        expect(data.loadAddress().equals(owner)).toBe(true);
        expect(data.loadAddress().equals(master)).toBe(true);
        expect(data.loadUintBig(256)).toBe(BigInt(`0x${root}`));
        // The reference master's salt: the first of 0…32 that puts the wallet in the owner's shard (top 4 bits), when one does.
        const salt = data.loadUint(10);
        const inShard = firstSaltInShard(owner, BigInt(`0x${root}`));
        if (inShard !== null) {
          expect(salt).toBe(inShard);
          expect(Address.parseRaw(a.jetton_wallet!).hash[0]! >> 4).toBe(owner.hash[0]! >> 4);
        } else {
          expect(salt).toBeLessThanOrEqual(32);
        }
      }
    }
  });

  it('answers 404 outside the snapshot and 400 for a malformed address', async () => {
    expect((await claim(testWallet().address.toRawString())).statusCode).toBe(404);
    const zero = players.find((p) => p.money === '0')!;
    expect((await claim(zero.wallet!.address.toRawString())).statusCode).toBe(404);
    const bad = await claim('nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('address');
    // A masterchain address is well formed: it is simply not in the snapshot.
    const member = eligible()[0]!.wallet!.address;
    expect((await claim(`-1:${member.hash.toString('hex')}`)).statusCode).toBe(404);
  });

  it('parses the address strictly: a workchain other than 0 or -1, or anything around the 64 hex digits, is a 400', async () => {
    const member = eligible()[0]!.wallet!.address;
    const hex = member.hash.toString('hex');
    const friendly = (workchainByte: number) => {
      const b = Buffer.alloc(36);
      b[0] = 0x51;
      b[1] = workchainByte;
      member.hash.copy(b, 2);
      crc16(b.subarray(0, 34)).copy(b, 34);
      return b.toString('base64url');
    };
    const urlSafe = member.toString({ bounceable: false });
    const standard = member.toString({ bounceable: false, urlSafe: false });
    // A friendly form with two characters of standard base64 (+ /), one of them turned into base64url (- _).
    const mixedAlphabet = (() => {
      for (let i = 0; ; i++) {
        const s = new Address(0, Buffer.alloc(32, i)).toString({ urlSafe: false });
        if ((s.match(/[+/]/g) ?? []).length >= 2) return s.replace(/[+/]/, (c) => (c === '+' ? '-' : '_'));
      }
    })();
    for (const address of [
      `256:${hex}`, // the workchain & 0xff is 0: this one used to find the member, then fail with a 500
      `-257:${hex}`,
      `1:${hex}`,
      `0:${hex}zz`,
      `0:${hex}0`,
      `0:${hex.slice(2)}`,
      ` 0:${hex}`,
      `0x0:${hex}`,
      `+0:${hex}`,
      `0.0:${hex}`,
      friendly(0x05),
      friendly(0xfe), // workchain -2 (int8)
      `${urlSafe.slice(0, -1)}${urlSafe.endsWith('A') ? 'B' : 'A'}`, // CRC mismatch
      mixedAlphabet,
      `${urlSafe}=`,
    ]) {
      const r = await claim(address);
      expect(r.statusCode, address).toBe(400);
      expect(r.json().field).toBe('address');
    }
    // The well-formed forms of the member still answer.
    for (const address of [member.toRawString(), `0:${hex.toUpperCase()}`, urlSafe, standard, member.toString(), member.toString({ testOnly: true })]) {
      expect((await claim(address)).statusCode, address).toBe(200);
    }
    expect((await claim(friendly(0xff))).statusCode).toBe(404); // the same hash on the masterchain: not a member
  });

  it('shows each player their allocation in MONEY', async () => {
    const info = (await h.call('GET', '/wallet', eligible()[0]!.id)).json<WalletInfo>();
    expect(info.allocation).toEqual({ round: 1, amount: '12.5', startFrom: round.startFrom, expireAt: round.expireAt });
    const none = (await h.call('GET', '/wallet', players.find((p) => p.money === '0')!.id)).json<WalletInfo>();
    expect(none.allocation).toBeNull();
  });

  it('a second process loads the stored dictionary (503 while loading) and answers the same proof', async () => {
    const other = await harnessOn(h.db, h.config, h.clock, undefined, false);
    try {
      const owner = eligible()[1]!.wallet!.address.toRawString();
      const mine = (await claim(owner)).json<ClaimAnswer>();
      const first = await other.call('GET', `/jetton/wallet/${owner}`, null);
      expect(first.statusCode).toBe(503);
      expect(first.headers['retry-after']).toBe('10');
      let r = first;
      for (let i = 0; i < 200 && r.statusCode === 503; i++) {
        await new Promise((resolve) => setImmediate(resolve));
        r = await other.call('GET', `/jetton/wallet/${owner}`, null);
      }
      expect(r.statusCode).toBe(200);
      expect(r.json<ClaimAnswer>().custom_payload).toBe(mine.custom_payload);
      const state = (await other.call('GET', '/jetton/state', null)).json<{ total_wallets: number; master_address: string }>();
      expect(state).toMatchObject({ total_wallets: 3, master_address: master.toRawString() });
    } finally {
      await other.close();
    }
  });

  it('builds a round once when two calls race for it', async () => {
    const next = { ...round, round: 2 };
    const [a, b] = await Promise.all([snapshot(next), snapshot(next)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    expect(a.json().merkleRoot).toBe(b.json().merkleRoot);
    const chunks = await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM airdrop_dict_chunks WHERE round = 2');
    expect(chunks.rows[0]!.n).toBe(1);
  });

  it('keeps the newest round for 1 s of the server clock: a round another process built is served once that clock has moved past it', async () => {
    // Another process's served round, on its own fixed clock: this app's snapshot does not tell it.
    const clock = manualClock(h.clock.now());
    const served = createServedRound(h.db, clock, () => {});
    const before = (await served.round())!.round;
    expect((await snapshot({ ...round, round: 3 })).statusCode).toBe(201);
    expect((await served.round())!.round).toBe(before);
    clock.advance(1_000);
    expect((await served.round())!.round).toBe(before);
    clock.advance(1);
    expect((await served.round())!.round).toBe(3);
  });

  it('reads the newest round again when the server clock steps back, rather than keeping it until the clock catches up', async () => {
    const clock = manualClock(h.clock.now() + 60_000);
    const served = createServedRound(h.db, clock, () => {});
    const before = (await served.round())!.round;
    expect((await snapshot({ ...round, round: before + 1 })).statusCode).toBe(201);
    clock.set(h.clock.now());
    expect((await served.round())!.round).toBe(before + 1);
  });
});
