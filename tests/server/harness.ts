import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { apiPrefix } from '../../engine/api-types.ts';
import { createApp } from '../../server/app.ts';
import { signInitData, type TelegramUser } from '../../server/auth/init-data.ts';
import { manualClock, type ManualClock } from '../../server/clock.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import { openDb, type Db } from '../../server/db/db.ts';
import type { RedisHandle } from '../../server/redis.ts';
import type { OutsideServices } from '../../server/domain/task-evidence.ts';

/** Storage suites run on PGlite always, and on PostgreSQL too when DATABASE_URL is set (.ci/run). */
export const backends: ('pglite' | 'postgres')[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export const botToken = '7000000001:AAtestTOKENtestTOKENtestTOKEN_abc';
export const startMs = Date.UTC(2026, 0, 15, 12, 0, 0);

export interface Harness {
  app: FastifyInstance;
  db: Db;
  clock: ManualClock;
  config: Config;
  /** A fresh Telegram user id for each test, so tests sharing one database do not collide. */
  newUserId(): number;
  /** Signed init data for a user at the clock's current time. */
  initData(user: number | Partial<TelegramUser>): string;
  call(method: 'GET' | 'POST', path: string, user: number | Partial<TelegramUser> | null, opts?: { body?: unknown; query?: Record<string, string> }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

let nextId = 5_000_000_000 + Math.floor(Math.random() * 1_000_000) * 100;

/** One app over one database (PGlite in memory, or a fresh PostgreSQL schema) per test file. */
export const openHarness = async (backend: 'pglite' | 'postgres', services?: OutsideServices): Promise<Harness> => {
  const config = loadConfig({
    BOT_TOKEN: botToken,
    NODE_ENV: 'test',
    ...(backend === 'postgres' ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  });
  const db = await openDb(config, backend === 'postgres' ? { schema: `t_${randomBytes(6).toString('hex')}`, poolSize: 20 } : { inMemory: true });
  return harnessOn(db, config, manualClock(startMs), services);
};

/** A second app over the same database and clock (e.g. without outside services). */
export const harnessOn = async (
  db: Db,
  config: Config,
  clock: ManualClock,
  services?: OutsideServices,
  ownsDb = true,
  redis?: RedisHandle,
): Promise<Harness> => {
  const app = await createApp({ db, config, clock, ...(services !== undefined ? { services } : {}), ...(redis !== undefined ? { redis } : {}) });
  const userOf = (u: number | Partial<TelegramUser>): TelegramUser =>
    typeof u === 'number' ? { id: u, first_name: `User${u}`, username: `user${u}` } : { id: nextId++, first_name: 'Test', ...u };
  const initData = (u: number | Partial<TelegramUser>) => signInitData(botToken, { user: userOf(u) }, clock.now());
  return {
    app,
    db,
    clock,
    config,
    newUserId: () => nextId++,
    initData,
    call: (method, path, user, opts = {}) =>
      app.inject({
        method,
        url: `${apiPrefix}${path}`,
        ...(opts.query !== undefined ? { query: opts.query } : {}),
        headers: user === null ? {} : { authorization: `tma ${initData(user)}` },
        ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
      }),
    close: async () => {
      await app.close();
      if (ownsDb) await db.close();
    },
  };
};
