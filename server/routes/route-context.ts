/**
 * What the route plugins get, and the audiences' doors they apply to their routes: the player's
 * init-data hook (`ctx.authenticate`, with `playerRoute` in schemas.ts), the operator's key
 * (`operatorRoute`, `requireApiKey` in schemas.ts) and, here, the console's session scope. Each
 * feature's route file (server/routes/<feature>.ts) registers its routes for every audience.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticate, FrozenSet } from '../players/exports.ts';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../background/exports.ts';
import { adminIdsOf } from '../console/exports.ts';
import type { Db } from '../core/db/db.ts';
import { refuse } from '../core/errors.ts';
import type { RedisHandle } from '../core/redis.ts';
import type { OutsideServices } from '../tasks/exports.ts';
import type { ServedRound } from '../airdrop/exports.ts';
import type { PuzzleSource } from '../daily/exports.ts';
import type { Clicks } from '../clicks/exports.ts';
import { createAdminGuard, type SessionDeps } from '../console/exports.ts';
import { emptyBody, noQuery } from './validation.ts';

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

/** What the console's route plugins get (registered under adminApiPrefix), built once by `consoleContextOf`. */
export interface ConsoleContext {
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

/** The console's context from the app's parts; the console needs BOT_TOKEN (sign-in checks Telegram's signatures with it). */
export const consoleContextOf = (deps: Pick<ConsoleContext, 'db' | 'reads' | 'config' | 'clock' | 'frozen' | 'airdrop'>): ConsoleContext => {
  if (deps.config.BOT_TOKEN === undefined) throw refuse('consoleNeedsBotToken');
  const session = {
    db: deps.db,
    clock: deps.clock,
    adminIds: adminIdsOf(deps.config),
    ttlS: deps.config.ADMIN_SESSION_TTL_S,
    publicUrl: deps.config.PUBLIC_URL,
  };
  // Named fields only: the register options also carry `prefix`, which must not reach the routes.
  return { db: deps.db, reads: deps.reads, config: deps.config, clock: deps.clock, frozen: deps.frozen, airdrop: deps.airdrop, session, guard: createAdminGuard(session) };
};

/**
 * A feature's console routes (docs/admin.md) in the console's scope: the session check runs on
 * every one of them (onRequest), and a query or a write's body that its schema does not describe
 * is refused (docs/admin.md "Input"), so a route can forget neither. Only sign-in is outside it.
 */
export const consoleScope =
  (routes: FastifyPluginAsync<ConsoleContext>): FastifyPluginAsync<ConsoleContext> =>
  async (app, ctx) => {
    app.addHook('onRequest', ctx.guard);
    app.addHook('onRoute', (route) => {
      const schema = (route.schema ??= {});
      schema.querystring ??= noQuery;
      if (route.method !== 'GET' && route.method !== 'HEAD') schema.body ??= emptyBody;
    });
    await routes(app, ctx);
  };
