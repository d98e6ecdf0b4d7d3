import type { Authenticate } from '../players/exports.ts';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../background/exports.ts';
import type { Db } from '../core/db/db.ts';
import type { RedisHandle } from '../core/redis.ts';
import type { OutsideServices } from '../tasks/exports.ts';
import type { ServedRound } from '../airdrop/exports.ts';
import type { PuzzleSource } from '../daily/exports.ts';
import type { Clicks } from '../clicks/exports.ts';

/**
 * What every route plugin gets as its options (registered under apiPrefix). Authenticated routes
 * add `onRequest: ctx.authenticate` (auth runs before validation, so a bad call without init data is a 401) and read the player with `playerOf(request)`.
 */
export interface RouteContext {
  db: Db;
  /** The social reads (leaderboard, friends, public stats): the replica while it is fresh, else `db` (docs/scaling.md "Read replica"). Never for a read a write depends on. */
  reads: Db;
  config: Config;
  clock: Clock;
  services?: OutsideServices;
  authenticate: Authenticate;
  /** REDIS_URL's connection, when set (live ranks; PostgreSQL stays the fallback). */
  redis?: RedisHandle;
  /** The airdrop round the claim API serves, shared with the console (one per app). */
  airdrop: ServedRound;
  /** Today's combo and cipher word, drawn from the daily secret when unset (one per app, docs/rules.md §15). */
  puzzles: PuzzleSource;
  /** A bot runs on BOT_TOKEN (not the development token): the background jobs then include the Stars reconciliation. */
  realBot: boolean;
  /** POST /click's queue and device sightings (one per app, server/clicks/clicks.ts). */
  clicks: Clicks;
}
