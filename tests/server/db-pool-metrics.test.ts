/**
 * The PostgreSQL pool's series (docs/operations.md): a caller that finds every connection busy
 * counts a wait, one whose wait runs out counts a connect time-out, and a statement ended by the
 * statement timeout counts one too. Each pool is labelled by its name. PostgreSQL only (PGlite has
 * no pool): runs when DATABASE_URL is set.
 */
import { describe, expect, it } from 'vitest';
import { openDb } from '../../server/core/db/db.ts';
import { DbUnavailable } from '../../server/core/db/errors.ts';
import { metrics } from '../../server/core/metrics.ts';

const url = process.env.DATABASE_URL;
const valueOf = async (m: { get(): Promise<{ values: { value: number; labels: Record<string, unknown> }[] }> }, pool: string) =>
  (await m.get()).values.find((v) => v.labels.pool === pool)?.value ?? 0;

describe.skipIf(url === undefined)('the pool metrics (PostgreSQL)', () => {
  it('counts a wait for a busy pool and the wait that ran out, under the pool name', async () => {
    const db = await openDb({ DATABASE_URL: url, DATA_DIR: '.' }, { migrate: false, poolSize: 1, connectTimeoutMs: 100, poolName: 'test-busy' });
    try {
      const held = db.query('SELECT pg_sleep(0.8)');
      // The one connection is busy: this caller waits (the gauge sees it), and gives up after 100 ms.
      const waiting = db.query('SELECT 1').catch((err: unknown) => err);
      expect(await valueOf(metrics.db.poolWaiting, 'test-busy')).toBe(1);
      expect(await waiting).toBeInstanceOf(DbUnavailable);
      await held;
      expect(await valueOf(metrics.db.poolWaits, 'test-busy')).toBe(1);
      expect(await valueOf(metrics.db.poolTimeouts, 'test-busy')).toBe(1);
      expect(await valueOf(metrics.db.statementTimeouts, 'test-busy')).toBe(0);
    } finally {
      await db.close();
    }
    // A closed pool is no longer read by the waiting gauge.
    expect((await metrics.db.poolWaiting.get()).values.some((v) => v.labels.pool === 'test-busy')).toBe(false);
  });

  it('counts a statement ended by the statement timeout', async () => {
    const db = await openDb({ DATABASE_URL: url, DATA_DIR: '.' }, { migrate: false, queryTimeoutMs: 200, poolName: 'test-slow' });
    try {
      await expect(db.query('SELECT pg_sleep(2)')).rejects.toBeInstanceOf(DbUnavailable);
      expect(await valueOf(metrics.db.statementTimeouts, 'test-slow')).toBe(1);
      expect(await valueOf(metrics.db.poolTimeouts, 'test-slow')).toBe(0);
    } finally {
      await db.close();
    }
  });
});
