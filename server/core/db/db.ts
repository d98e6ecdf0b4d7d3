import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { CoreConfig } from '../config/config.ts';
import { metrics, trackPool } from '../metrics.ts';
import { commitFailure, storageError, timeoutOf } from './errors.ts';
import { migrate } from './migrate.ts';
import { openPgliteDir } from './pglite-template.ts';

/** One result of a query: rows as objects, and the number of rows the statement touched. */
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface QueryOptions {
  /**
   * A statement the hot path runs many times a second: on PostgreSQL it is parsed and planned once
   * per connection under this name, then only bound and executed (docs/storage.md, "Click groups").
   * Only for statements whose result columns are listed (a `SELECT *` prepared before a migration
   * adds a column fails with "cached plan must not change result type"). PGlite ignores it.
   */
  name?: string;
}

/** Anything that runs SQL: the database itself, or a transaction. */
export interface Queryable {
  /** One statement with $1… parameters; `opts.name` prepares it once per connection (PostgreSQL). */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[], opts?: QueryOptions): Promise<QueryResult<T>>;
  /** Several statements, no parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** The storage the server runs on: PostgreSQL through `pg`, or embedded PGlite. */
export interface Db extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface OpenDbOptions {
  /** PostgreSQL only: a schema to create (if missing) and put first on the search_path (test isolation). */
  schema?: string;
  /** PostgreSQL only: close leaves a test schema (t_…) in place (the migrations' own pool). */
  keepSchema?: boolean;
  /** PGlite only: run in memory instead of DATA_DIR (tests). */
  inMemory?: boolean;
  /** Apply the migrations of server/core/db/migrations (default true). */
  migrate?: boolean;
  /** Pool size for PostgreSQL (default 10). */
  poolSize?: number;
  /**
   * PostgreSQL: the longest a statement may run before it fails as unavailable (default 5 s, the
   * request paths' bound). 0 means none: migrations and the jobs' long statements (a rank rebuild
   * over every player) run on such a pool.
   */
  queryTimeoutMs?: number;
  /** PostgreSQL: the longest a caller waits for a connection, free or new (default 1 s). */
  connectTimeoutMs?: number;
  /** PostgreSQL: the pool's `pool` label in the metrics: requests (default), jobs, migrations (docs/operations.md). */
  poolName?: string;
}

/** docs/faults.md "When the database is away": what a request waits at most for the database. */
export const dbTimeoutDefaults = { queryTimeoutMs: 5_000, connectTimeoutMs: 1_000 } as const;

// NUMERIC stays a decimal string (money is exact); BIGINT counters and epoch-ms fit a JS number.
const numericOid = 1700;
const int8Oid = 20;
const parseInt8 = (v: string): number => Number(v);
const keepString = (v: string): string => v;

const openPostgres = async (url: string, opts: OpenDbOptions): Promise<Db> => {
  const schema = opts.schema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`bad schema name ${schema}`);
  if (schema !== undefined) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } finally {
      await admin.end();
    }
  }
  const types = {
    getTypeParser: ((oid: number, format?: string) =>
      oid === numericOid ? keepString : oid === int8Oid ? parseInt8 : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
  };
  const queryTimeoutMs = opts.queryTimeoutMs ?? dbTimeoutDefaults.queryTimeoutMs;
  const max = opts.poolSize ?? 10;
  const pool = new pg.Pool({
    connectionString: url,
    max,
    types,
    // Bounded waits (docs/faults.md "When the database is away"): a free client or a new connection within
    // connectTimeoutMs; a statement ends server-side at queryTimeoutMs, and the client stops
    // waiting shortly after even when the server never answers (a dead link).
    connectionTimeoutMillis: opts.connectTimeoutMs ?? dbTimeoutDefaults.connectTimeoutMs,
    ...(queryTimeoutMs > 0 ? { statement_timeout: queryTimeoutMs, query_timeout: queryTimeoutMs + 1_000 } : {}),
    keepAlive: true,
    ...(schema !== undefined ? { options: `-c search_path=${schema}` } : {}),
  });
  // A connection reset, an administrator shutdown or a failover emits 'error' on the client, idle
  // or checked out; without a listener Node would crash the process. The query in flight fails by
  // itself (and becomes DbUnavailable), and the pool drops the broken client.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  // The pool's waits and time-outs (docs/operations.md); a caller waits when every connection is busy.
  const poolName = opts.poolName ?? 'requests';
  const untrack = trackPool(poolName, pool);
  const waits = metrics.db.poolWaits.labels(poolName);
  const timeouts = { connect: metrics.db.poolTimeouts.labels(poolName), statement: metrics.db.statementTimeouts.labels(poolName) };
  const acquiring = () => {
    if (pool.idleCount === 0 && pool.totalCount >= max) waits.inc();
  };
  const failed = (err: unknown): unknown => {
    const bound = timeoutOf(err);
    if (bound !== null) timeouts[bound].inc();
    return storageError(err);
  };
  const run = async <T>(q: pg.Pool | pg.PoolClient, sql: string, params?: readonly unknown[], opts?: QueryOptions): Promise<QueryResult<T>> => {
    if (q === pool) acquiring();
    try {
      const values = params as unknown[] | undefined;
      const r = await (opts?.name !== undefined ? q.query({ name: opts.name, text: sql, values }) : q.query(sql, values));
      return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
    } catch (err) {
      throw failed(err);
    }
  };
  return {
    kind: 'postgres',
    query: (sql, params, opts) => run(pool, sql, params, opts),
    exec: async (sql) => {
      await run(pool, sql);
    },
    transaction: async (fn) => {
      acquiring();
      const client = await pool.connect().catch((err: unknown) => {
        throw failed(err);
      });
      let broken: unknown;
      try {
        await run(client, 'BEGIN');
        const tx: Queryable = {
          query: (sql, params, opts) => run(client, sql, params, opts),
          exec: async (sql) => {
            await run(client, sql);
          },
        };
        const result = await fn(tx);
        // A COMMIT cut short without PostgreSQL's ERROR may have committed: it leaves as
        // CommitUnknown, never as "nothing changed" (docs/faults.md "An answer lost after the commit").
        await run(client, 'COMMIT').catch((err: unknown) => {
          throw commitFailure(err);
        });
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch((e: unknown) => {
          broken = e;
        });
        throw storageError(err);
      } finally {
        // A client whose ROLLBACK failed is not returned to the pool: it is closed.
        client.release(broken as Error | undefined);
      }
    },
    close: async () => {
      if (schema !== undefined && schema.startsWith('t_') && opts.keepSchema !== true) await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
      untrack();
      await pool.end();
    },
  };
};

type LiteTx = Parameters<Parameters<PGlite['transaction']>[0]>[0];
const wrapLite = (q: PGlite | LiteTx): Queryable => ({
  query: async <T>(sql: string, params?: readonly unknown[]) => {
    const r = await q.query<T>(sql, params as unknown[] | undefined);
    return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
  },
  exec: async (sql: string) => {
    await q.exec(sql);
  },
});
const liteDb = (lite: PGlite): Db => ({
  kind: 'pglite',
  ...wrapLite(lite),
  transaction: (fn) => lite.transaction((tx) => fn(wrapLite(tx))),
  close: () => lite.close(),
});

const openPglite = async (dataDir: string, opts: OpenDbOptions): Promise<Db> => {
  const parsers = { [numericOid]: keepString, [int8Oid]: parseInt8 };
  if (opts.inMemory === true) return liteDb(await PGlite.create({ parsers }));
  const dir = resolve(dataDir, 'pglite');
  mkdirSync(dir, { recursive: true });
  if (opts.migrate === false) return liteDb(await PGlite.create({ parsers, dataDir: dir }));
  // A new directory is migrated before the template is taken, so the next new one starts migrated.
  return liteDb(await openPgliteDir(dir, { parsers }, async (lite) => void (await migrate(liteDb(lite)))));
};

/** Opens PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR, and applies the migrations. */
export const openDb = async (config: Pick<CoreConfig, 'DATABASE_URL' | 'DATA_DIR'>, opts: OpenDbOptions = {}): Promise<Db> => {
  if (config.DATABASE_URL === undefined) {
    const db = await openPglite(config.DATA_DIR, opts);
    if (opts.migrate !== false) {
      try {
        await migrate(db);
      } catch (err) {
        await db.close();
        throw err;
      }
    }
    return db;
  }
  if (opts.migrate !== false) {
    // Migrations on a pool of their own without the request paths' statement timeout: an index
    // built over a million players takes longer than a request may.
    const migrating = await openPostgres(config.DATABASE_URL, { ...opts, queryTimeoutMs: 0, poolSize: 1, keepSchema: true, poolName: 'migrations' });
    try {
      await migrate(migrating);
    } finally {
      await migrating.close();
    }
  }
  return openPostgres(config.DATABASE_URL, opts);
};
