/**
 * Whether the database is ready for this process (docs/operations.md "Probes"): it answers within
 * a bound, and every migration this build knows is recorded in schema_migrations. One small query
 * does both. Probes that arrive together (a balancer's and a scrape's) share it.
 */
import type { Queryable } from './db.ts';
import { isUnavailable } from './errors.ts';
import { listMigrations } from './migrate.ts';

export type DbReadiness = { ok: true } | { ok: false; reason: 'database' | 'migrations'; message: string };

/** The longest a probe waits for the database (the pool's own bounds are 1 s to connect, 5 s a statement). */
export const dbProbeTimeoutMs = 2_000;

// 42P01: schema_migrations does not exist, so nothing was ever migrated here.
const undefinedTable = '42P01';

/** A probe of `db`; `versions` are the migrations this build knows (default: its migration files). */
export const createDbProbe = (db: Queryable, versions: readonly number[] = listMigrations().map((m) => m.version), timeoutMs = dbProbeTimeoutMs): (() => Promise<DbReadiness>) => {
  const check = async (): Promise<DbReadiness> => {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    try {
      const r = await Promise.race([db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations WHERE version = ANY($1::int[])', [versions]), timedOut]);
      if (r === 'timeout') return { ok: false, reason: 'database', message: `The database did not answer within ${timeoutMs} ms` };
      const missing = versions.length - Number(r.rows[0]?.n ?? 0);
      if (missing > 0) return { ok: false, reason: 'migrations', message: `${missing} of ${versions.length} migrations ${missing === 1 ? 'is' : 'are'} not applied` };
      return { ok: true };
    } catch (err) {
      if (!isUnavailable(err) && (err as { code?: unknown }).code === undefinedTable) return { ok: false, reason: 'migrations', message: 'The database has no migrations applied' };
      // The probe is public: the driver's message (hosts, ports) stays out of its answer.
      return { ok: false, reason: 'database', message: 'The database does not answer' };
    } finally {
      clearTimeout(timer);
    }
  };
  let inFlight: Promise<DbReadiness> | null = null;
  return () =>
    (inFlight ??= check().finally(() => {
      inFlight = null;
    }));
};
