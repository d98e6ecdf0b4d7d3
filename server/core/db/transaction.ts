import type { Db, Queryable } from './db.ts';

// PostgreSQL aborts one side of a deadlock (40P01) or a serialisation conflict (40001) and asks the
// client to run it again; the transaction changed nothing, so running it again is safe.
const retryable = new Set(['40P01', '40001']);

/** True when PostgreSQL aborted the statement or transaction for a deadlock or a serialisation conflict: running it again is safe. */
export const isRetryable = (err: unknown): boolean => retryable.has((err as { code?: string } | null)?.code ?? '');

/**
 * The one way to open a transaction (docs/architecture.md "Transactions"): `fn` runs in one
 * transaction, committed when it resolves and rolled back when it throws, and run again (up to
 * `attempts` times in all) when PostgreSQL aborted it for a deadlock or a serialisation conflict.
 * `fn` may therefore run more than once: it does its work through `tx` and nothing else.
 * Lint keeps every other file from calling `db.transaction` or sending BEGIN (eslint.config.js).
 */
export const transaction = async <T>(db: Db, fn: (tx: Queryable) => Promise<T>, attempts = 4): Promise<T> => {
  for (let i = 1; ; i++) {
    try {
      return await db.transaction(fn);
    } catch (err) {
      if (i >= attempts || !isRetryable(err)) throw err;
    }
  }
};
