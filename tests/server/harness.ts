/**
 * The one test harness: the real app (createApp) over PGlite or a fresh PostgreSQL schema, a manual
 * clock and signed Telegram init data. The console, wallet and outside-service harnesses build on it.
 */
import { expect } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { apiPrefix } from '../../engine/wire/api-types.ts';
import { money } from '../../engine/rules/money.ts';
import { createApp } from '../../server/app.ts';
import { signInitData, type TelegramUser } from '../../server/players/init-data.ts';
import { manualClock, type ManualClock } from '../../server/core/clock.ts';
import { loadConfig, type Config } from '../../server/background/settings.ts';
import { openDb, type Db } from '../../server/core/db/db.ts';
import type { RedisHandle } from '../../server/core/redis.ts';
import type { OutsideServices } from '../../server/tasks/task-evidence.ts';

export { openForSuite } from '../suite-fixture.ts';

export type Backend = 'pglite' | 'postgres';

/** Storage suites run on PGlite always, and on PostgreSQL too when DATABASE_URL is set (.ci/run). */
export const backends: Backend[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export const botToken = '7000000001:AAtestTOKENtestTOKENtestTOKEN_abc';
export const startMs = Date.UTC(2026, 0, 15, 12, 0, 0);

/** The environment of a test app: the bot token, the backend's database, then `env`. */
export const testEnv = (backend: Backend, env: Record<string, string> = {}) => ({
  BOT_TOKEN: botToken,
  NODE_ENV: 'test',
  ...(backend === 'postgres' ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  ...env,
});

/** PGlite in memory, or a fresh PostgreSQL schema. */
export const openTestDb = (config: Config, backend: Backend): Promise<Db> =>
  openDb(config, backend === 'postgres' ? { schema: `t_${randomBytes(6).toString('hex')}`, poolSize: 20 } : { inMemory: true });

export interface CallOptions {
  body?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

export interface Harness {
  app: FastifyInstance;
  db: Db;
  clock: ManualClock;
  config: Config;
  /** A fresh Telegram user id for each test, so tests sharing one database do not collide. */
  newUserId(): number;
  /** Signed init data for a user at the clock's current time. */
  initData(user: number | Partial<TelegramUser>): string;
  call(method: 'GET' | 'POST', path: string, user: number | Partial<TelegramUser> | null, opts?: CallOptions): Promise<LightMyRequestResponse>;
  /** Creates the player (first authenticated call) and returns their id. */
  newPlayer(profile?: Partial<TelegramUser>): Promise<number>;
  close(): Promise<void>;
}

let nextId = 5_000_000_000 + Math.floor(Math.random() * 1_000_000) * 100;

/** What an app's outside services are built from. */
export interface AppParts {
  db: Db;
  config: Config;
  clock: ManualClock;
}

/** One app over one database per test file; `services` may be built from the app's parts. */
export const openHarness = async (
  backend: Backend,
  services?: OutsideServices | ((parts: AppParts) => OutsideServices),
  env: Record<string, string> = {},
): Promise<Harness> => {
  const config = loadConfig(testEnv(backend, env));
  const db = await openTestDb(config, backend);
  const clock = manualClock(startMs);
  return harnessOn(db, config, clock, typeof services === 'function' ? services({ db, config, clock }) : services);
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
  const call: Harness['call'] = (method, path, user, opts = {}) =>
    app.inject({
      method,
      url: `${apiPrefix}${path}`,
      ...(opts.query !== undefined ? { query: opts.query } : {}),
      headers: { ...(user === null ? {} : { authorization: `tma ${initData(user)}` }), ...opts.headers },
      ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
    });
  return {
    app,
    db,
    clock,
    config,
    newUserId: () => nextId++,
    initData,
    call,
    newPlayer: async (profile = {}) => {
      const id = profile.id ?? nextId++;
      const r = await call('GET', '', { ...userOf(id), ...profile, id });
      if (r.statusCode !== 200) throw new Error(`could not create player: ${r.statusCode} ${r.body}`);
      return id;
    },
    close: async () => {
      await app.close();
      if (ownsDb) await db.close();
    },
  };
};

/** The player's MONEY balance and the sum of their MONEY ledger (they must agree). */
export const moneyOf = async (db: Db, userId: number): Promise<{ balance: string; ledger: string }> => {
  const r = await db.query<{ balance: string; ledger: string }>(
    `SELECT u.total_money::text AS balance,
            COALESCE((SELECT sum(amount) FROM ledger WHERE user_id = u.id AND currency = 'MONEY'), 0)::text AS ledger
       FROM users u WHERE u.id = $1`,
    [userId],
  );
  return r.rows[0]!;
};

/** The player holds `amount` MONEY and their ledger agrees. */
export const expectMoney = async (db: Db, userId: number, amount: string | number): Promise<void> => {
  const m = await moneyOf(db, userId);
  expect(money(m.balance).eq(amount)).toBe(true);
  expect(money(m.ledger).eq(m.balance)).toBe(true);
};

