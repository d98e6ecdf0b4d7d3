import { randomBytes } from 'node:crypto';
import { Address, beginCell, Cell, Dictionary, exoticMerkleProof, generateMerkleProof, type DictionaryValue } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { claimPayloadBoc, treeFromBoc, treeToBoc } from './airdrop-boc.ts';
import { addressKey, buildAirdropTree, claimPayload, lookup, merkleProof, pathTo, rootHash, type AirdropItem } from './airdrop-tree.ts';

/** The TEP-177 value as @ton/core's Dictionary writes it: the reference to compare with. */
const itemValue: DictionaryValue<AirdropItem> = {
  serialize: (v, b) => {
    b.storeCoins(v.amount).storeUint(v.startFrom, 48).storeUint(v.expireAt, 48);
  },
  parse: (s) => ({ amount: s.loadCoins(), startFrom: s.loadUint(48), expireAt: s.loadUint(48) }),
};

const randomAddress = (wc = 0) => new Address(wc, randomBytes(32));

const sample = (n: number) => {
  const entries = Array.from({ length: n }, (_, i) => ({
    address: randomAddress(i % 7 === 0 ? -1 : 0),
    item: { amount: BigInt(i) * 1_000_000_000n + BigInt(i % 3), startFrom: 1_767_000_000, expireAt: 1_800_000_000 } as AirdropItem,
  }));
  const sorted = entries.map((e) => ({ ...e, key: addressKey(e.address) })).sort((a, b) => Buffer.compare(a.key, b.key));
  const tree = buildAirdropTree(sorted.map((e) => e.key), sorted.map((e) => e.item));
  const dict = Dictionary.empty(Dictionary.Keys.Address(), itemValue);
  for (const e of entries) dict.set(e.address, e.item);
  const reference = beginCell().storeDictDirect(dict).endCell();
  return { entries, tree, dict, reference };
};

/** Checks a proof the way a jetton wallet does: the MerkleProof's hash is the stored root, and the path holds the item. */
const verify = (proof: Cell, root: Buffer, address: Address): AirdropItem | null => {
  const { proofHash } = exoticMerkleProof(proof.bits, proof.refs);
  if (!proofHash.equals(root)) return null;
  // The proven subtree is a dictionary whose unused branches are pruned: look the key up along it.
  const dict = Dictionary.loadDirect(Dictionary.Keys.Address(), itemValue, proof.refs[0]!.beginParse(true));
  return dict.get(address) ?? null;
};

describe('the TEP-177 airdrop dictionary', () => {
  it('has the same cells and root hash as @ton/core\'s Dictionary, for one entry and for many', () => {
    for (const n of [1, 2, 3, 50, 700]) {
      const { tree, reference } = sample(n);
      expect(rootHash(tree).toString('hex')).toBe(reference.hash().toString('hex'));
      expect(tree.depths[tree.root]).toBe(reference.depth());
    }
  });

  it('gives the proof @ton/core gives, and it verifies against the root for random addresses', () => {
    const { entries, tree, dict, reference } = sample(400);
    for (const e of entries.slice(0, 25)) {
      const proof = merkleProof(tree, e.address)!;
      const theirs = generateMerkleProof(dict, [e.address], Dictionary.Keys.Address());
      expect(proof.hash().equals(theirs.hash())).toBe(true);
      expect(verify(proof, reference.hash(), e.address)).toEqual(e.item);
      expect(lookup(tree, e.address)).toEqual(e.item);
    }
  });

  it('answers nothing for an address outside the dictionary', () => {
    const { tree } = sample(100);
    expect(merkleProof(tree, randomAddress())).toBeNull();
    expect(lookup(tree, randomAddress())).toBeNull();
  });

  it('fails verification when the amount or the proof is tampered with', () => {
    const { entries, tree, reference } = sample(300);
    const e = entries[5]!;
    const proof = merkleProof(tree, e.address)!;
    // A different amount in the leaf: the proof from a tree whose item differs.
    const tamperedTree = buildAirdropTree([addressKey(e.address)], [{ ...e.item, amount: e.item.amount + 1n }]);
    const tampered = merkleProof(tamperedTree, e.address)!;
    expect(verify(tampered, reference.hash(), e.address)).toBeNull();
    // A flipped bit anywhere in the proven path changes the hash the MerkleProof cell carries.
    const inner = proof.refs[0]!;
    const b = beginCell().storeBit(!inner.bits.at(0)).storeBits(inner.bits.substring(1, inner.bits.length - 1));
    for (const r of inner.refs) b.storeRef(r);
    const flipped = b.endCell();
    expect(() => exoticMerkleProof(proof.bits, [flipped])).toThrow();
    // A proof for another address does not prove this one.
    const other = merkleProof(tree, entries[6]!.address)!;
    expect(verify(other, reference.hash(), e.address)).toBeNull();
  });

  it('wraps the proof in the merkle_airdrop_claim custom payload', () => {
    const { entries, tree } = sample(10);
    const payload = claimPayload(merkleProof(tree, entries[0]!.address)!);
    const s = Cell.fromBoc(payload.toBoc())[0]!.beginParse();
    expect(s.loadUint(32)).toBe(0x0df602d6);
    expect(s.loadRef().isExotic).toBe(true);
  });

  it('writes a bag of cells that @ton/core reads to the same root, and reads it back', () => {
    const { entries, tree, reference } = sample(500);
    const boc = treeToBoc(tree);
    expect(Cell.fromBoc(boc)[0]!.hash().equals(reference.hash())).toBe(true);
    const back = treeFromBoc(boc);
    expect(rootHash(back).equals(reference.hash())).toBe(true);
    const e = entries[42]!;
    expect(merkleProof(back, e.address)!.hash().equals(merkleProof(tree, e.address)!.hash())).toBe(true);
    const corrupt = Buffer.from(boc);
    corrupt[100]! ^= 1;
    expect(() => treeFromBoc(corrupt)).toThrow(/checksum/);
  });

  it('writes the claim payload BoC directly, the same cells as @ton/core builds, for shallow and deep paths', () => {
    const { entries, tree } = sample(300);
    // Keys that share a long prefix make a deep path (more than 255 cells in the BoC).
    const base = randomBytes(32);
    const deep = Array.from({ length: 200 }, (_, i) => {
      const h = Buffer.from(base);
      h[31 - Math.floor(i / 8)]! ^= 1 << (i % 8);
      return new Address(0, h);
    });
    const deepKeys = [new Address(0, base), ...deep].map((a) => ({ a, k: addressKey(a) })).sort((x, y) => Buffer.compare(x.k, y.k));
    const deepTree = buildAirdropTree(deepKeys.map((e) => e.k), deepKeys.map(() => ({ amount: 5n, startFrom: 1, expireAt: 2 })));
    const cases = [...entries.slice(0, 10).map((e) => ({ t: tree, a: e.address })), { t: deepTree, a: deepKeys[0]!.a }, { t: deepTree, a: deepKeys[100]!.a }];
    for (const { t, a } of cases) {
      const boc = claimPayloadBoc(t, pathTo(t, addressKey(a))!);
      const parsed = Cell.fromBoc(boc)[0]!;
      expect(parsed.hash().equals(claimPayload(merkleProof(t, a)!).hash())).toBe(true);
    }
  });
});
