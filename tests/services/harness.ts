/**
 * The real app (createApp + the real OutsideServices) over PGlite or PostgreSQL, configured to talk
 * to fakes on 127.0.0.1. Follows tests/server/harness.ts (same backends, tokens, clock start).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { apiPrefix } from '../../engine/api-types.ts';
import { createApp } from '../../server/app.ts';
import { signInitData, type TelegramUser } from '../../server/auth/init-data.ts';
import { manualClock, type ManualClock } from '../../server/clock.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import { openDb, type Db } from '../../server/db/db.ts';
import { createOutsideServices } from '../../server/services/outside-services.ts';
import { backends, botToken, startMs } from '../server/harness.ts';

export { backends, botToken, startMs };

export interface ServicesHarness {
  app: FastifyInstance;
  db: Db;
  clock: ManualClock;
  config: Config;
  newUserId(): number;
  call(
    method: 'GET' | 'POST',
    path: string,
    user: number | null,
    opts?: { body?: unknown; query?: Record<string, string>; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  /** Creates the player (first authenticated call) and returns their id. */
  newPlayer(profile?: Partial<TelegramUser>): Promise<number>;
  close(): Promise<void>;
}

let nextId = 6_000_000_000 + Math.floor(Math.random() * 1_000_000) * 100;

export const testEnv = (backend: 'pglite' | 'postgres', env: Record<string, string> = {}) => ({
  BOT_TOKEN: botToken,
  NODE_ENV: 'test',
  PUBLIC_URL: 'https://money.example',
  ...(backend === 'postgres' ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  ...env,
});

export const openServicesHarness = async (backend: 'pglite' | 'postgres', env: Record<string, string> = {}): Promise<ServicesHarness> => {
  const config = loadConfig(testEnv(backend, env));
  const db = await openDb(config, backend === 'postgres' ? { schema: `t_${randomBytes(6).toString('hex')}`, poolSize: 10 } : { inMemory: true });
  const clock = manualClock(startMs);
  const services = createOutsideServices({ db, config, clock, log: () => {} });
  const app = await createApp({ db, config, clock, services });
  const initData = (u: TelegramUser) => signInitData(botToken, { user: u }, clock.now());
  const userOf = (id: number): TelegramUser => ({ id, first_name: `User${id}`, username: `user${id}` });
  const call: ServicesHarness['call'] = (method, path, user, opts = {}) =>
    app.inject({
      method,
      url: `${apiPrefix}${path}`,
      ...(opts.query !== undefined ? { query: opts.query } : {}),
      headers: { ...(user === null ? {} : { authorization: `tma ${initData(userOf(user))}` }), ...opts.headers },
      ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
    });
  return {
    app,
    db,
    clock,
    config,
    newUserId: () => nextId++,
    call,
    newPlayer: async (profile = {}) => {
      const id = profile.id ?? nextId++;
      const r = await app.inject({
        method: 'GET',
        url: apiPrefix,
        headers: { authorization: `tma ${initData({ ...userOf(id), ...profile, id })}` },
      });
      if (r.statusCode !== 200) throw new Error(`could not create player: ${r.statusCode} ${r.body}`);
      return id;
    },
    close: async () => {
      await app.close();
      await db.close();
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
