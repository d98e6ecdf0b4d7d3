/** What the airdrop feature offers the routes and the other features: they import it from here and nowhere else (docs/architecture.md, "Server layout"). */
export { airdropMetrics } from './metrics.ts';
export { claimFor, jettonState } from './claim.ts';
export type { ClaimDeps, JettonClaim, JettonState } from './claim.ts';
export { createServedRound } from './served-round.ts';
export type { ServedRound } from './served-round.ts';
export { allocationOf, latestBuiltRound, roundSummary } from './snapshot.ts';
export { takeAirdropSnapshot, withRootInt } from './take-snapshot.ts';
export { verifyTonProof } from './ton-proof.ts';
export { issueTonProofPayload, linkedWallet, linkWallet, unlinkWallet } from './wallet-links.ts';
export { airdropSettings } from './settings.ts';
