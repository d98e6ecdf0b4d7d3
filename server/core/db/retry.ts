import type { Db, Queryable } from './db.ts';

// PostgreSQL aborts one side of a deadlock (40P01) or a serialisation conflict (40001); the
// transaction changed nothing, so running it again is safe.
const retryable = new Set(['40P01', '40001']);

/** db.transaction, retried a few times when PostgreSQL aborted it for a deadlock. */
export const transaction = async <T>(db: Db, fn: (tx: Queryable) => Promise<T>, attempts = 4): Promise<T> => {
  for (let i = 1; ; i++) {
    try {
      return await db.transaction(fn);
    } catch (err) {
      if (i >= attempts || !retryable.has((err as { code?: string }).code ?? '')) throw err;
    }
  }
};
