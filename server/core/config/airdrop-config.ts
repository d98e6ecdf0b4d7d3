/**
 * Config of the TON wallet link and the airdrop (docs/airdrop.md), spread into the server's one
 * schema in config.ts. Empty defaults keep the app starting without them.
 */
import { z } from 'zod';

const text = z.string().trim().default('');

export const airdropConfigShape = {
  /** The domain a ton_proof must name; empty = the host of PUBLIC_URL (the TON Connect manifest's url). */
  TON_PROOF_DOMAIN: text,
  /** How long a ton_proof payload and its signed timestamp stay valid, in seconds. */
  TON_PROOF_TTL_S: z.coerce.number().int().min(60).max(3_600).default(900),
  /** The mintless jetton master (any address form); with JETTON_WALLET_CODE, the claim API adds the jetton wallet. */
  JETTON_MASTER_ADDRESS: text,
  /** The jetton wallet code as a base64 BoC, as the master holds it (a library cell too); the salt is per owner (jetton-wallet.ts). */
  JETTON_WALLET_CODE: text,
};
