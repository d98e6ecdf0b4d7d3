/**
 * The optional Redis connection (REDIS_URL, docs/configuration.md). Every command has a timeout and
 * fails at once while the connection is down (no offline queue), so a Redis fault costs a caller
 * one fast error and the caller falls back to PostgreSQL; the error listener keeps a dropped
 * connection from killing the process, and ioredis reconnects by itself.
 */
import { Redis } from 'ioredis';

export interface RedisHandle {
  readonly client: Redis;
  /** Prepended to every key, so several deployments (or test runs) can share one Redis. */
  readonly prefix: string;
  /** True while the connection is up; callers skip Redis (and use PostgreSQL) otherwise. */
  ready(): boolean;
  /** Resolves true once connected, false after `timeoutMs` (start-up and tests; never required). */
  waitReady(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface RedisOptions {
  prefix?: string;
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
  log?: (message: string) => void;
}

/** A fault is logged once per minute at most: a Redis outage must not flood the log. */
const logEveryMs = 60_000;

export const openRedis = (url: string, opts: RedisOptions = {}): RedisHandle => {
  const log = opts.log ?? ((m: string) => console.warn(m));
  const client = new Redis(url, {
    connectTimeout: opts.connectTimeoutMs ?? 2_000,
    commandTimeout: opts.commandTimeoutMs ?? 500,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    // Reconnect forever, backing off to 5 s between attempts.
    retryStrategy: (attempt) => Math.min(attempt * 200, 5_000),
  });
  let lastLogMs = 0;
  client.on('error', (err: Error) => {
    const now = Date.now();
    if (now - lastLogMs < logEveryMs) return;
    lastLogMs = now;
    log(`redis: ${err.message} (falling back to PostgreSQL until it is back)`);
  });
  return {
    client,
    prefix: opts.prefix ?? 'money:',
    ready: () => client.status === 'ready',
    waitReady: (timeoutMs) =>
      client.status === 'ready'
        ? Promise.resolve(true)
        : new Promise((resolve) => {
            const done = (ok: boolean) => {
              clearTimeout(timer);
              client.off('ready', onReady);
              resolve(ok);
            };
            const onReady = () => done(true);
            const timer = setTimeout(() => done(false), timeoutMs);
            client.on('ready', onReady);
          }),
    // Bounded: QUIT when connected (at most 1 s), then drop the socket and stop reconnecting.
    close: async () => {
      if (client.status === 'ready')
        await Promise.race([client.quit().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
      client.disconnect();
    },
  };
};
