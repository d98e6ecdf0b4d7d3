/**
 * The claim API's series (docs/operations.md "Metrics"), in the core registry
 * (server/core/metrics.ts): the proofs it served and the time each took (`claimFor`, claim.ts).
 */
import { counter, histogram } from '../core/metrics.ts';

export const airdropMetrics = {
  proofsServed: counter('money_airdrop_proofs_served_total', 'Claim proofs answered by the TEP-176 API (GET …/jetton/wallet/:address).'),
  proofSeconds: histogram({
    name: 'money_airdrop_proof_duration_seconds',
    help: 'Time to build a served claim proof and its answer.',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
  }),
} as const;
