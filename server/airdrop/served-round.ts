/**
 * What the claim API serves (docs/airdrop.md): the newest built round, read at most once a second
 * of the server's clock per process, and each round's parsed dictionary, loaded once per process (single flight) and
 * kept. One per app, shared by every door that takes a snapshot, so each one makes the new round
 * served at once.
 */
import type { Clock } from '../core/clock.ts';
import type { Db } from '../core/db/db.ts';
import { refuse } from '../core/errors.ts';
import type { AirdropTree } from './airdrop-tree.ts';
import type { RoundSummary } from '../../engine/wire/admin-types.ts';
import { latestBuiltRound, loadRoundTree } from './snapshot.ts';

export interface ServedRound {
  /** The newest built round, or null; at most 1 s old. */
  round(): Promise<RoundSummary | null>;
  /** The round's dictionary, or `airdropLoading` while it loads (the first ask starts the load). */
  treeOf(round: number): AirdropTree;
  /** A snapshot was just taken: serve it now, with its dictionary when the build has it in hand. */
  snapshotTaken(round: number, tree?: AirdropTree): void;
}

export const createServedRound = (db: Db, clock: Clock, logError: (err: unknown, round: number) => void): ServedRound => {
  const trees = new Map<number, Promise<AirdropTree>>();
  const ready = new Map<number, AirdropTree>();
  let latest: { at: number; round: Promise<RoundSummary | null> } | null = null;
  return {
    round: () => {
      const now = clock.now();
      // A clock stepped back (NTP, a test's clock) reads again at once, rather than once it has caught up.
      if (latest === null || now < latest.at || now - latest.at > 1_000) {
        const round = latestBuiltRound(db);
        latest = { at: now, round };
        round.catch(() => {
          latest = null;
        });
      }
      return latest.round;
    },
    treeOf: (round) => {
      const t = ready.get(round);
      if (t !== undefined) return t;
      if (!trees.has(round)) {
        const loading = loadRoundTree(db, round);
        trees.set(round, loading);
        loading.then((tree) => ready.set(round, tree)).catch((err: unknown) => {
          trees.delete(round);
          logError(err, round);
        });
      }
      throw refuse('airdropLoading');
    },
    snapshotTaken: (round, tree) => {
      if (tree !== undefined) ready.set(round, tree);
      latest = null;
    },
  };
};
