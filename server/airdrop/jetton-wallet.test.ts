import { createHash } from 'node:crypto';
import { Address, beginCell, Cell, contractAddress, loadStateInit } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { walletCodes } from '../../tests/fixtures/ton-wallets.ts';
import { jettonWalletOf, lastSalt, shardPrefix } from './jetton-wallet.ts';

// Any code cell will do for the address arithmetic: the master only hashes it.
const code = Cell.fromBase64(walletCodes.v3R2);
const master = Address.parseRaw('0:522ce7145038682f6e14dbd59e0c980e94bc6ff9729d3754ca883db4eee2f263');
const merkleRoot = 0xbc9dfc41c5f23a94974187aafb764ddd93327bc5d61023f10a35448f7657f6f6n;

/** Seeded owners: sha256 of a counter, so every run sees the same ones. */
const owner = (seed: string, workchain = 0) => new Address(workchain, createHash('sha256').update(seed).digest());

/** The rule spelled out with whole @ton/core cells: every salt's wallet, then the first at the smallest shard distance. */
const model = (who: Address) => {
  const candidates = Array.from({ length: lastSalt + 1 }, (_, salt) => {
    const data = beginCell().storeUint(0, 4).storeCoins(0).storeAddress(who).storeAddress(master).storeUint(merkleRoot, 256).storeUint(salt, 10).endCell();
    const address = contractAddress(0, { code, data });
    return { salt, address, distance: shardPrefix(address.hash) ^ shardPrefix(who.hash) };
  });
  const smallest = Math.min(...candidates.map((c) => c.distance));
  return candidates.find((c) => c.distance === smallest)!;
};

describe('the jetton wallet of an owner (the reference mintless master)', () => {
  it('answers what the reference master answered in @ton/sandbox for the same master, root and code', () => {
    // get_wallet_address and get_wallet_state_init_and_salt of ton-community/mintless-jetton's jetton-minter.fc,
    // deployed with this master address's data (docs/airdrop.md "The jetton wallet").
    const reference: [string, number, string][] = [
      ['0:e6632bc45ce84462e70006a35ec9af01f4070bc10aba92e72e640edd7ec97164', 0, '0:e4e9cf30197c7b65c65247596fa92221a93f6f2441819a9bc58c150d0a700f13'],
      ['0:eb5aadbbd988e60a22f3a5b497835dedc1467c43598709343bcb059e619f90c9', 25, '0:e501205123416d6e592778bff92fd87a743878294fbe1434de92735c39f2d149'],
      ['0:7a411af18acedf717e9a49c85bd065687731024b292d3b288227aa3a8eed7c9e', 15, '0:7e3a7f407443578eca4892ba916aef91aa598f19d42f6cac8ba2959cd970c619'],
      ['0:229e225a22feba2b63188a4e52e0057b3afde8cbfeb7a47b98071ecaeaab75ac', 6, '0:2da725af0645983b1029b5d73273ec720608b8563d9bd068134e7749a4eab5ab'],
      // No salt reaches the owner's shard: the first closest one.
      ['0:61f40c94a0ee310c17cdafe4a28c4c207164057112ccddfe40eb7e9a0f06d9a8', 23, '0:73c3d127e77e23ca726e32dd4ffe9aa9f06bd74c4a446c136965d4b302e5cb26'],
      ['0:a9a23279bb76c1ca835c84cc9e09c3d75c7955f59a94521da9d6facdb5f76b3f', 1, '0:bfd1a8eafcebc7daf863b90f5c4319f6ec573dda30b2bc7082afdf2e29e76f4c'],
      ['0:047d25b91244d21f0898dc278f291d8dbe7b281b7e2b0579d994e3de870dbb66', 0, '0:23657084ab96ceb637b8b6e8597dacdec655748246f5494699788b6107046ff6'],
      // A masterchain owner: its wallet is still on the basechain, the salt aims at the owner's hash.
      ['-1:07a70d15daff38e691f5a06828ebee8ad4367b56a769283cfc2a519b95a76924', 3, '0:06b0f6d240526db466481149ff6bd2591ef9ccb8d9dcaff7add61e9aa40a45e0'],
      ['-1:149bf38eb3fbde09d62f6e9fd7bd03e35e001b7128ad8555336738d56883bbda', 5, '0:15b2dfabedf95fd18e84ce3d40893c2974df4a1a2f433cc61d51a460ca77b055'],
    ];
    for (const [who, salt, wallet] of reference) {
      const w = jettonWalletOf(Address.parseRaw(who), master, code, merkleRoot);
      expect({ who, salt: w.salt, wallet: w.address.toRawString() }).toEqual({ who, salt, wallet });
    }
  });

  it('puts the wallet in the owner\'s shard with the first salt that does, else the first closest, for 600 seeded owners', () => {
    let fallbacks = 0;
    for (let i = 0; i < 600; i++) {
      const who = owner(`owner-${i}`, i % 10 === 9 ? -1 : 0);
      const w = jettonWalletOf(who, master, code, merkleRoot);
      const expected = model(who);
      expect(w.salt, who.toRawString()).toBe(expected.salt);
      // The address is the hash of the state init answered with it, whose data carries the salt.
      const init = loadStateInit(w.stateInit.beginParse());
      expect(init.code!.equals(code)).toBe(true);
      expect(contractAddress(0, { code: init.code!, data: init.data! }).equals(w.address)).toBe(true);
      expect(w.address.equals(expected.address)).toBe(true);
      const data = init.data!.beginParse();
      expect([data.loadUint(4), data.loadCoins()]).toEqual([0, 0n]);
      expect(data.loadAddress().equals(who)).toBe(true);
      expect(data.loadAddress().equals(master)).toBe(true);
      expect(data.loadUintBig(256)).toBe(merkleRoot);
      expect(data.loadUint(10)).toBe(w.salt);
      expect(data.remainingBits).toBe(0);
      if (expected.distance === 0) {
        expect(shardPrefix(w.address.hash)).toBe(shardPrefix(who.hash));
      } else {
        fallbacks++;
        expect(shardPrefix(w.address.hash)).not.toBe(shardPrefix(who.hash));
      }
    }
    // About one owner in eight has no salt in 0…32 that reaches its shard ((15/16)^33).
    expect(fallbacks).toBeGreaterThan(30);
  });
});
