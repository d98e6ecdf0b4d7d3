/**
 * The airdrop snapshot as an operator action (docs/airdrop.md), the one door of the operator API
 * (POST /public/airdrop/snapshot), the console (POST /airdrop/snapshot) and the command line
 * (server/airdrop/snapshot-cli.ts): takes the round's
 * snapshot once (server/airdrop/snapshot.ts), writes the audit row in the transaction that marks
 * the round built, and makes this process serve the new round at once.
 */
import type { Db } from '../core/db/db.ts';
import { recordAudit, type Actor } from '../audit/exports.ts';
import type { ServedRound } from './served-round.ts';
import type { RoundParams, RoundSummary } from '../../engine/wire/admin-types.ts';
import { takeSnapshotOnce, type PhaseLog } from './snapshot.ts';

/** A round as the operators read it: the Merkle root also as the uint256 the jetton master stores. */
export const withRootInt = (s: RoundSummary) => ({ ...s, merkleRootInt: s.merkleRoot === null ? null : BigInt(`0x${s.merkleRoot}`).toString() });

export interface SnapshotDeps {
  db: Db;
  /** The API process's served round; the command line has none. */
  served?: ServedRound;
  /** Called after each step of a build (the command line prints them). */
  phase?: PhaseLog;
  /** AIRDROP_COUNTS_BOUGHT_BOOSTS: MONEY earned through bought boosts counts (docs/airdrop.md "Bought boosts"); off by default. */
  countsBoughtBoosts?: boolean;
}

/** Takes (or returns the already taken) snapshot of a round; `created` is true for the call that froze it. */
export const takeAirdropSnapshot = async (deps: SnapshotDeps, actor: Actor, p: RoundParams, nowMs: number): Promise<{ summary: RoundSummary; created: boolean }> => {
  const { summary, created, tree } = await takeSnapshotOnce(
    deps.db,
    p,
    nowMs,
    (tx, built) => recordAudit(tx, { actor, action: 'airdrop.snapshot', target: `round:${built.round}`, after: withRootInt(built), nowMs }),
    deps.phase,
    deps.countsBoughtBoosts ?? false,
  );
  deps.served?.snapshotTaken(summary.round, tree);
  return { summary, created };
};
