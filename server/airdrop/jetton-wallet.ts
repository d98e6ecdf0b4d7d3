/**
 * The jetton wallet a mintless jetton master deploys for an owner, as the reference master
 * (ton-community/mintless-jetton) answers it from `get_wallet_address` and
 * `get_wallet_state_init_and_salt` (docs/airdrop.md "The jetton wallet"):
 *
 *   data      = status:uint4=0 balance:Coins=0 owner:MsgAddress master:MsgAddress merkle_root:uint256 salt:uint10
 *   stateInit = no split_depth, not special, code, data, no libraries; the wallet is basechain:<its hash>
 *
 * The salt is chosen per owner so that the wallet lands in the owner's shard: salts 0, 1, … 32 are
 * tried in turn, a salt's distance is the XOR of the top 4 bits of the wallet's and the owner's
 * address hashes, and the first salt at the smallest distance wins (the search stops at distance 0).
 * When no salt reaches distance 0 (about one owner in eight), that first closest salt is the fallback.
 */
import type { Address, Cell } from '@ton/core';
import { beginCell, contractAddress, storeStateInit } from '@ton/core';
import { ordinaryCellHash } from './airdrop-tree.ts';

/** Salts 0…lastSalt are tried (the reference's ITERATION_NUM); the salt field is 10 bits wide. */
export const lastSalt = 32;

/** The 4-bit shard prefix of an address hash: the top nibble. */
export const shardPrefix = (hash: Buffer): number => hash[0]! >> 4;

export interface JettonWallet {
  address: Address;
  stateInit: Cell;
  salt: number;
}

// 4 + 4 (Coins 0) + 267 + 267 (addr_std, no anycast) + 256 + 10: whole bytes, the salt in the last 10 bits.
const dataBits = 808;

const walletData = (owner: Address, master: Address, merkleRoot: bigint, salt: number): Cell =>
  beginCell().storeUint(0, 4).storeCoins(0).storeAddress(owner).storeAddress(master).storeUint(merkleRoot, 256).storeUint(salt, 10).endCell();

/** The wallet, its state init and its salt for `owner` under `master` with `code` and the round's `merkleRoot`. */
export const jettonWalletOf = (owner: Address, master: Address, code: Cell, merkleRoot: bigint): JettonWallet => {
  // The cells' hashes directly, per salt: @ton/core cells for 33 salts take ~1.7 ms of a claim request.
  const base = walletData(owner, master, merkleRoot, 0);
  if (base.bits.length !== dataBits) throw new Error('owner and master must be addr_std addresses');
  const data = Buffer.from(base.bits.subbuffer(0, dataBits)!);
  const codeHash = code.hash();
  const codeDepth = code.depth();
  // StateInit bits: split_depth absent, special absent, code present, data present, library absent.
  const stateInitBits = Buffer.from([0b0011_0000]);
  const ownerPrefix = shardPrefix(owner.hash);
  let best = { salt: 0, distance: 16 };
  for (let salt = 0; salt <= lastSalt && best.distance > 0; salt++) {
    data[dataBits / 8 - 2] = (data[dataBits / 8 - 2]! & 0xfc) | (salt >> 8);
    data[dataBits / 8 - 1] = salt & 0xff;
    const dataHash = ordinaryCellHash(data, dataBits, [], []);
    const account = ordinaryCellHash(stateInitBits, 5, [codeHash, dataHash], [codeDepth, 0]);
    const distance = shardPrefix(account) ^ ownerPrefix;
    if (distance < best.distance) best = { salt, distance };
  }
  const init = { code, data: walletData(owner, master, merkleRoot, best.salt) };
  return { address: contractAddress(0, init), stateInit: beginCell().store(storeStateInit(init)).endCell(), salt: best.salt };
};
