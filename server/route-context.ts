import type { Authenticate } from './auth/authenticate.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Db } from './db/db.ts';
import type { RedisHandle } from './redis.ts';
import type { OutsideServices } from './domain/task-evidence.ts';

/**
 * What every route plugin gets as its options (registered under apiPrefix). Authenticated routes
 * add `onRequest: ctx.authenticate` (auth runs before validation, so a bad call without init data is a 401) and read the player with `playerOf(request)`.
 */
export interface RouteContext {
  db: Db;
  config: Config;
  clock: Clock;
  services?: OutsideServices;
  authenticate: Authenticate;
  /** REDIS_URL's connection, when set (live ranks; PostgreSQL stays the fallback). */
  redis?: RedisHandle;
}
