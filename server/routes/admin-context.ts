import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FrozenSet } from '../players/exports.ts';
import type { ServedRound } from '../airdrop/exports.ts';
import type { SessionDeps } from '../console/exports.ts';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../background/exports.ts';
import type { Db } from '../core/db/db.ts';

/** What the console's route plugins get (registered under adminApiPrefix). */
export interface AdminContext {
  db: Db;
  /** The console's reads (dashboard, players, audit): the replica while it is fresh, else `db` (docs/scaling.md "Read replica"). */
  reads: Db;
  config: Config;
  clock: Clock;
  session: SessionDeps;
  /** The session check (onRequest) of every console route but sign-in. */
  guard: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  frozen: FrozenSet;
  /** The airdrop round the claim API serves (a console snapshot serves the new round at once). */
  airdrop: ServedRound;
}
