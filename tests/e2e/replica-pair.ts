/**
 * A private PostgreSQL primary and its streaming replica (initdb, then `pg_basebackup -R`, which
 * writes standby.signal and the primary's connection), on spare ports of their own in a temporary
 * folder, run as the `postgres` user when the tests run as root. The shared server on 5432 is never
 * touched. `missingReplicaBinaries` names what is absent so that the suite can say why it skips.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const binDir = process.env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin';
const asRoot = process.getuid?.() === 0;

/** The binaries a pair needs that are not installed (empty when it can run). */
export const missingReplicaBinaries = (): string[] => {
  const missing = ['initdb', 'pg_ctl', 'pg_basebackup'].map((b) => join(binDir, b)).filter((p) => !existsSync(p));
  if (asRoot && !existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser')) missing.push('runuser');
  return missing;
};

// A range apart from private-postgres.ts's (55412–55419), so suites running side by side never meet.
const spareports = [55430, 55431, 55432, 55433, 55434, 55435, 55436, 55437, 55438, 55439];

const portFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

const run = (bin: string, args: string[]): void => {
  const cmd = asRoot ? 'runuser' : join(binDir, bin);
  const argv = asRoot ? ['-u', 'postgres', '--', join(binDir, bin), ...args] : args;
  const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
};

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
  const ports: number[] = [];
  for (const p of spareports) if (ports.length < 2 && (await portFree(p))) ports.push(p);
  if (ports.length < 2) throw new Error(`no two free ports among ${spareports.join(', ')}`);
  const [primaryPort, replicaPort] = ports as [number, number];
  const dir = mkdtempSync(join(tmpdir(), 'money-pg-pair-'));
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const primaryData = join(dir, 'primary');
  const replicaData = join(dir, 'replica');
  const common = `-k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const ctl = (data: string, log: string, ...args: string[]) => run('pg_ctl', ['-D', data, '-l', join(dir, log), ...args]);
  // initdb's trust lines include replication connections from 127.0.0.1.
  run('initdb', ['-D', primaryData, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  ctl(primaryData, 'primary.log', '-o', `-p ${primaryPort} ${common} -c wal_level=replica -c max_wal_senders=4`, '-w', 'start');
  run('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replicaData, '-R', '-X', 'stream', '--no-sync']);
  const replicaOpts = `-p ${replicaPort} ${common} -c hot_standby=on`;
  const startReplica = () => ctl(replicaData, 'replica.log', '-o', replicaOpts, '-w', 'start');
  startReplica();
  const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/postgres`;
  return {
    primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
    replicaUrl,
    pauseReplay: () => sql(replicaUrl, 'SELECT pg_wal_replay_pause()'),
    resumeReplay: () => sql(replicaUrl, 'SELECT pg_wal_replay_resume()'),
    stopReplica: () => ctl(replicaData, 'replica.log', '-m', 'immediate', '-w', 'stop'),
    startReplica,
    promote: () => ctl(replicaData, 'replica.log', '-w', 'promote'),
    destroy: () => {
      for (const data of [replicaData, primaryData]) {
        try {
          ctl(data, 'stop.log', '-m', 'immediate', '-w', 'stop');
        } catch {
          /* already stopped */
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
