import type { Db, Queryable } from './db.ts';
import { isTimeout, retrying } from './retry.ts';

/**
 * The one way to open a transaction (docs/architecture.md "Transactions"): `fn` runs in one
 * transaction, committed when it resolves and rolled back when it throws, and run again by the one
 * retry policy (retry.ts) when PostgreSQL aborted it for a deadlock or a serialisation conflict, or
 * the database was away before its COMMIT; never for a statement that ran out of time. `fn` may therefore run more than once: it does its work
 * through `tx` and nothing else. Lint keeps every other file from calling `db.transaction` or
 * sending BEGIN (eslint.config.js).
 */
export const transaction = async <T>(db: Db, fn: (tx: Queryable) => Promise<T>): Promise<T> => retrying(
    () => db.transaction(fn),
    (err) => (isTimeout(err) ? 'stop' : 'go on'),
  );
