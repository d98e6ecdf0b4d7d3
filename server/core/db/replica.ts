/**
 * The social reads on a PostgreSQL streaming replica (docs/scaling.md "Read replica"): the
 * leaderboard, friends, the public stats and the console's reads ask `reads`, whose statements go
 * to the replica while it is fresh and to the primary otherwise. Every write, and every read a
 * write depends on, uses the primary `Db` itself; a transaction on `reads` runs on the primary too.
 *
 * Freshness is checked every REPLICA_CHECK_MS, never per request: the primary's WAL position
 * against the replica's replayed one, and when the replica is behind, the time since the last
 * transaction it replayed. Past REPLICA_MAX_LAG_MS (`lagging`), while it cannot be asked (`down`)
 * or once it has left recovery (`promoted`: it no longer follows this primary), the reads go to
 * the primary until a check finds it fresh again. A read the replica fails between two checks is
 * run on the primary at once and marks the replica down until the next check.
 */
import { metrics, type ReplicaFallbackReason } from '../metrics.ts';
import type { Db, QueryOptions, QueryResult } from './db.ts';
import { isUnavailable } from './errors.ts';

/** Where the social reads go: `replica`, or the primary because the replica is lagging, down or promoted. */
export type ReplicaState = 'replica' | ReplicaFallbackReason;

export interface ReplicaOptions {
  /** Past this replay lag the reads go to the primary (REPLICA_MAX_LAG_MS). */
  maxLagMs: number;
  /** How often the replica is checked (REPLICA_CHECK_MS). */
  checkMs: number;
  /** Told of every change of state (logged by main.ts). */
  onChange?: (state: ReplicaState, lagMs: number) => void;
}

export interface ReplicaReads {
  /** The database the social reads use. */
  readonly reads: Db;
  /** Where they go now. */
  state(): ReplicaState;
  /** The replay lag at the last check, in ms (Infinity when it could not be measured). */
  lagMs(): number;
  /** Checks the replica now (the timer does it every checkMs); resolves with the new state. */
  check(): Promise<ReplicaState>;
  /** Stops the checks and closes the replica's pool (not the primary's). */
  close(): Promise<void>;
}

interface ReplayRow {
  recovering: boolean;
  behind: number | null;
  since_ms: number | null;
}

// A statement cancelled on a standby because replay needed its rows (SQLSTATE 40001 there) is
// answered from the primary, as is any read the replica cannot serve right now.
const runElsewhere = (err: unknown): boolean => isUnavailable(err) || (err as { code?: unknown } | null)?.code === '40001';

/** Routes `primary`'s social reads to `replica` while it is fresh; checks it once before resolving. */
export const openReplicaReads = async (primary: Db, replica: Db, opts: ReplicaOptions): Promise<ReplicaReads> => {
  let state: ReplicaState = 'down';
  let lag = Infinity;
  const setState = (next: ReplicaState, lagMs: number) => {
    lag = lagMs;
    metrics.db.replicaLag.set(Number.isFinite(lagMs) ? lagMs / 1_000 : -1);
    if (next === state) return;
    state = next;
    metrics.db.replicaInUse.set(next === 'replica' ? 1 : 0);
    if (next !== 'replica') metrics.db.replicaFallbacks.inc({ reason: next });
    opts.onChange?.(next, lagMs);
  };

  const check = async (): Promise<ReplicaState> => {
    let primaryLsn: string;
    try {
      primaryLsn = (await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]!.lsn;
    } catch {
      // The primary cannot say how far it is: the reads stay where they are until it can.
      return state;
    }
    try {
      const r = (
        await replica.query<ReplayRow>(
          `SELECT pg_is_in_recovery() AS recovering,
                  pg_wal_lsn_diff($1::pg_lsn, pg_last_wal_replay_lsn())::float8 AS behind,
                  (EXTRACT(EPOCH FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000)::float8 AS since_ms`,
          [primaryLsn],
        )
      ).rows[0]!;
      if (!r.recovering) setState('promoted', Infinity);
      else {
        // Caught up with the primary's position when it was asked: no lag, however long ago the last write was.
        const lagMs = r.behind !== null && r.behind <= 0 ? 0 : (r.since_ms ?? Infinity);
        setState(lagMs > opts.maxLagMs ? 'lagging' : 'replica', lagMs);
      }
    } catch {
      setState('down', Infinity);
    }
    return state;
  };

  const read = async <T>(sql: string, params?: readonly unknown[], queryOpts?: QueryOptions): Promise<QueryResult<T>> => {
    if (state === 'replica') {
      try {
        return await replica.query<T>(sql, params, queryOpts);
      } catch (err) {
        if (!runElsewhere(err)) throw err;
        if (isUnavailable(err)) setState('down', Infinity);
      }
    }
    return primary.query<T>(sql, params, queryOpts);
  };

  metrics.db.replicaInUse.set(0);
  await check();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const loop = () => {
    timer = setTimeout(() => void check().finally(() => !stopped && loop()), opts.checkMs);
    timer.unref();
  };
  loop();

  return {
    reads: {
      kind: primary.kind,
      query: read,
      // Statements without results and transactions may write: the primary's.
      exec: (sql) => primary.exec(sql),
      transaction: (fn) => primary.transaction(fn),
      // The primary's pool belongs to its opener; `close()` below closes the replica's.
      close: async () => {},
    },
    state: () => state,
    lagMs: () => lag,
    check,
    close: async () => {
      stopped = true;
      clearTimeout(timer);
      await replica.close();
    },
  };
};
