/**
 * The private PostgreSQL of `npm run bench:scale -- --private-cluster` (and `--replica`): a primary
 * initdb'd in a temporary folder (BENCH_CLUSTER_DIR, else the system's) on a spare port, whose
 * postgresql.conf includes the committed ops/postgresql-primary.conf (the settings of a 10M
 * primary, shared_buffers 4GB among them), and on demand a streaming replica of it
 * (`pg_basebackup -R`, the same settings). Both run as the postgres user (tests/e2e/pg-cluster.ts,
 * which the replica tests use too). The shared server on 5432 has no replication line in pg_hba
 * and is never touched. The clusters are stopped and removed when the bench ends, fails or is
 * interrupted.
 */
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { clusterDir, freePorts, missingPgBinaries, removeClusters, startCluster, startReplica, type Cluster } from '../tests/e2e/pg-cluster.ts';
import { processTreeCpuMs } from './load.ts';

const primaryConf = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', 'ops', 'postgresql-primary.conf');
// A range apart from the tests' (55412–55419, 55430–55439).
const spareports = [55450, 55451, 55452, 55453, 55454, 55455, 55456, 55457, 55458, 55459];
// A base backup of a 10M primary copies gigabytes; starting a 4 GB shared_buffers server is quick.
const timeoutMs = 30 * 60_000;

export interface PrivateCluster {
  /** The primary's URL of `database`. */
  primaryUrl(database: string): string;
  /** CPU ms the primary's processes have used so far. */
  primaryCpuMs(): number;
  /** A streaming replica of the primary as it is now, started and caught up with it. */
  startReplica(): Promise<void>;
  /** The replica's URL of `database` (after startReplica). */
  replicaUrl(database: string): string;
  /** CPU ms the replica's processes have used so far (after startReplica). */
  replicaCpuMs(): number;
  /** Stops the replica and removes its files. */
  removeReplica(): void;
  /** Stops both and removes their folder (also run when the process exits). */
  destroy(): void;
}

const one = async <T>(url: string, sql: string, params: unknown[] = []): Promise<T> => {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<{ v: T }>(sql, params)).rows[0]!.v;
  } finally {
    await c.end();
  }
};

/** Waits until the replica has replayed everything the primary had written when called. */
const waitReplayed = async (primaryUrl: string, replicaUrl: string): Promise<void> => {
  const lsn = await one<string>(primaryUrl, 'SELECT pg_current_wal_lsn()::text AS v');
  for (let i = 0; i < 3_600; i++) {
    if (await one<boolean>(replicaUrl, 'SELECT COALESCE(pg_last_wal_replay_lsn() >= $1::pg_lsn, false) AS v', [lsn])) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the replica did not replay the primary's WAL up to ${lsn} in 30 minutes`);
};

export const startPrivateCluster = async (): Promise<PrivateCluster> => {
  const missing = missingPgBinaries(['initdb', 'pg_ctl', 'pg_basebackup']);
  if (missing.length > 0) throw new Error(`--private-cluster needs ${missing.join(', ')}`);
  const [primaryPort, replicaPort] = (await freePorts(spareports, 2)) as [number, number];
  const dir = clusterDir('money-scale-pg-', process.env.BENCH_CLUSTER_DIR ?? tmpdir());
  let primary: Cluster | undefined;
  let replica: Cluster | undefined;
  const destroy = () => {
    removeClusters(dir, [replica, primary].filter((c): c is Cluster => c !== undefined));
    replica = primary = undefined;
  };
  // Removed on any way out: the end of main, an uncaught failure (process.exit), Ctrl-C.
  process.once('exit', destroy);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  primary = startCluster(join(dir, 'primary'), { port: primaryPort, dir, log: 'primary.log', timeoutMs, conf: [`include = '${primaryConf}'`] });
  const live = (c: Cluster | undefined, what: string): Cluster => {
    if (c === undefined) throw new Error(`the ${what} is not running`);
    return c;
  };
  return {
    primaryUrl: (database) => live(primary, 'primary').url(database),
    primaryCpuMs: () => processTreeCpuMs(live(primary, 'primary').postmasterPid()),
    startReplica: async () => {
      const p = live(primary, 'primary');
      replica = startReplica(p, join(dir, 'replica'), { port: replicaPort, dir, log: 'replica.log', timeoutMs });
      await waitReplayed(p.url(), replica.url());
    },
    replicaUrl: (database) => live(replica, 'replica').url(database),
    replicaCpuMs: () => processTreeCpuMs(live(replica, 'replica').postmasterPid()),
    removeReplica: () => {
      if (replica !== undefined) removeClusters(replica.dataDir, [replica]);
      replica = undefined;
    },
    destroy,
  };
};
