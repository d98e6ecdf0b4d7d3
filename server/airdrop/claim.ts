/**
 * The TEP-176 custom-payload API's two answers (docs/airdrop.md "The claim API"): a wallet's claim
 * and the round's state. Both read the one served round (served-round.ts); the jetton master and
 * wallet code come parsed from the config (JETTON_MASTER_ADDRESS, JETTON_WALLET_CODE).
 */
import type { Address, Cell } from '@ton/core';
import { refuse } from '../core/errors.ts';
import { parseTonAddress } from '../core/ton-address.ts';
import { claimPayloadBoc } from './airdrop-boc.ts';
import { addressKey, itemAt, pathTo } from './airdrop-tree.ts';
import { jettonWalletOf } from './jetton-wallet.ts';
import { airdropMetrics } from './metrics.ts';
import type { ServedRound } from './served-round.ts';

export interface ClaimDeps {
  served: ServedRound;
  /** The jetton master and its wallet code; both set, the claim adds the jetton wallet and its state init. */
  jetton: { master?: Address | undefined; code?: Cell | undefined };
}

/** TEP-176 /wallet/:address. */
export interface JettonClaim {
  owner: string;
  custom_payload: string;
  compressed_info: { amount: string; start_from: string; expired_at: string };
  jetton_wallet?: string;
  state_init?: string;
}

/** TEP-176 /state. */
export interface JettonState {
  total_wallets: number;
  master_address: string | null;
  round: number | null;
  merkle_root: string | null;
}

const jettonOf = ({ master, code }: ClaimDeps['jetton']): { master: Address; code: Cell } | null =>
  master !== undefined && code !== undefined ? { master, code } : null;

/** The claim of the wallet at `addressText` in the served round: its proof and compressed info; refuses an address not in it. */
export async function claimFor(deps: ClaimDeps, addressText: string): Promise<JettonClaim> {
  const startedMs = performance.now();
  const parsed = parseTonAddress(addressText, { workchains: [0, -1], friendly: true });
  if (!parsed.ok) throw refuse('notATonAddress', { field: 'address' });
  const owner = parsed.address;
  const round = await deps.served.round();
  if (round === null) throw refuse('noAirdropSnapshot', { field: 'address' });
  // While the dictionary loads this refuses airdropLoading, which the edge answers with Retry-After.
  const tree = deps.served.treeOf(round.round);
  const found = pathTo(tree, addressKey(owner));
  if (found === null) throw refuse('notInAirdrop', { field: 'address', values: { address: owner.toRawString() } });
  const item = itemAt(tree, found);
  const claim: JettonClaim = {
    owner: owner.toRawString(),
    custom_payload: claimPayloadBoc(tree, found).toString('base64'),
    compressed_info: { amount: item.amount.toString(), start_from: String(item.startFrom), expired_at: String(item.expireAt) },
  };
  const jetton = jettonOf(deps.jetton);
  if (jetton !== null) {
    // The reference master's wallet for this owner and round: its salt puts it in the owner's shard.
    const wallet = jettonWalletOf(owner, jetton.master, jetton.code, BigInt(`0x${round.merkleRoot!}`));
    claim.jetton_wallet = wallet.address.toRawString();
    claim.state_init = wallet.stateInit.toBoc().toString('base64');
  }
  airdropMetrics.proofsServed.inc();
  airdropMetrics.proofSeconds.observe((performance.now() - startedMs) / 1_000);
  return claim;
}

/** The served round's state: its wallets, the jetton master (when configured), the round and its Merkle root. */
export async function jettonState(deps: ClaimDeps): Promise<JettonState> {
  const round = await deps.served.round();
  const jetton = jettonOf(deps.jetton);
  return { total_wallets: round?.wallets ?? 0, master_address: jetton?.master.toRawString() ?? null, round: round?.round ?? null, merkle_root: round?.merkleRoot ?? null };
}
