/**
 * Config of the TON wallet link and the airdrop (docs/airdrop.md), composed into the server's one
 * schema by server/background/settings.ts. Empty defaults keep the app starting without them. The jetton's master and
 * wallet code are parsed here, so a wrong one is in the list of problems at start.
 */
import { Cell, type Address } from '@ton/core';
import { z } from 'zod';
import { parseTonAddress } from '../core/ton-address.ts';
import { envFlag } from '../core/config/env-flag.ts';
import { text } from '../core/config/kinds.ts';

/** Empty = not set (undefined); otherwise the master's address, in any form parseTonAddress takes. */
const jettonMaster = text.transform((v, ctx): Address | undefined => {
  if (v === '') return undefined;
  const parsed = parseTonAddress(v, { workchains: [0, -1], friendly: true });
  if (parsed.ok) return parsed.address;
  ctx.addIssue({ code: 'custom', message: parsed.message });
  return z.NEVER;
});

/** Empty = not set (undefined); otherwise the code cell, from a base64 BoC. */
const jettonWalletCode = text.transform((v, ctx): Cell | undefined => {
  if (v === '') return undefined;
  try {
    return Cell.fromBase64(v);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a base64 BoC' });
    return z.NEVER;
  }
});

export const airdropSettings = {
  /** The domain a ton_proof must name; empty = the host of PUBLIC_URL (the TON Connect manifest's url). */
  TON_PROOF_DOMAIN: text,
  /** How long a ton_proof payload and its signed timestamp stay valid, in seconds. */
  TON_PROOF_TTL_S: z.coerce.number().int().min(60).max(3_600).default(900),
  /** The mintless jetton master (any address form); with JETTON_WALLET_CODE, the claim API adds the jetton wallet. */
  JETTON_MASTER_ADDRESS: jettonMaster,
  /** The jetton wallet code as a base64 BoC, as the master holds it (a library cell too); the salt is per owner (jetton-wallet.ts). */
  JETTON_WALLET_CODE: jettonWalletCode,
  /**
   * Whether MONEY earned through a bought boost (docs/shop.md) counts toward the airdrop. Off (the
   * default): the snapshot allocates a player's MONEY less what bought taps earned them
   * (`users.bought_money`, docs/airdrop.md "Bought boosts").
   */
  AIRDROP_COUNTS_BOUGHT_BOOSTS: envFlag.default(false),
};
