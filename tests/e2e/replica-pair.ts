/**
 * A private PostgreSQL primary and its streaming replica (initdb, then `pg_basebackup -R`, which
 * writes standby.signal and the primary's connection), on spare ports of their own in a temporary
 * folder, run as the `postgres` user when the tests run as root (tests/e2e/pg-cluster.ts). The
 * shared server on 5432 is never touched. `missingReplicaBinaries` names what is absent so that
 * the suite can say why it skips.
 */
import { join } from 'node:path';
import pg from 'pg';
import { clusterDir, freePorts, missingPgBinaries, removeClusters, startCluster, startReplica } from './pg-cluster.ts';

/** The binaries a pair needs that are not installed (empty when it can run). */
export const missingReplicaBinaries = (): string[] => missingPgBinaries(['initdb', 'pg_ctl', 'pg_basebackup']);

// A range apart from private-postgres.ts's (55412–55419) and the scale bench's (55450–55459), so
// suites running side by side never meet.
const spareports = [55430, 55431, 55432, 55433, 55434, 55435, 55436, 55437, 55438, 55439];

/** One SQL statement on a server, on a connection of its own. */
const sql = async (url: string, text: string): Promise<void> => {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
};

export interface ReplicaPair {
  primaryUrl: string;
  replicaUrl: string;
  /** `pg_wal_replay_pause()` on the replica: it keeps receiving WAL and stops applying it. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Crash-stops the replica (`pg_ctl stop -m immediate`). */
  stopReplica(): void;
  /** Starts it again; it resumes streaming from the primary. */
  startReplica(): void;
  /** `pg_ctl promote`: the replica leaves recovery and takes writes of its own. */
  promote(): void;
  /** Stops both and removes their folder. */
  destroy(): void;
}

/** initdb a primary, base-backs it up into a standby, starts both. */
export const startReplicaPair = async (): Promise<ReplicaPair> => {
  const [primaryPort, replicaPort] = (await freePorts(spareports, 2)) as [number, number];
  const dir = clusterDir('money-pg-pair-');
  const options = '-c fsync=off';
  const primary = startCluster(join(dir, 'primary'), { port: primaryPort, dir, log: 'primary.log', options: `${options} -c wal_level=replica -c max_wal_senders=4` });
  const replica = startReplica(primary, join(dir, 'replica'), { port: replicaPort, dir, log: 'replica.log', options: `${options} -c hot_standby=on` });
  const replicaUrl = replica.url();
  return {
    primaryUrl: primary.url(),
    replicaUrl,
    pauseReplay: () => sql(replicaUrl, 'SELECT pg_wal_replay_pause()'),
    resumeReplay: () => sql(replicaUrl, 'SELECT pg_wal_replay_resume()'),
    stopReplica: () => replica.stop(),
    startReplica: () => replica.start(),
    promote: () => replica.promote(),
    destroy: () => removeClusters(dir, [replica, primary]),
  };
};
