/**
 * Private PostgreSQL clusters (initdb, pg_ctl, `pg_basebackup -R`) on spare ports in a temporary
 * folder, run as the `postgres` user when we run as root: what the end-to-end tests that crash,
 * lag or promote a server (private-postgres.ts, replica-pair.ts) and `npm run bench:scale --
 * --private-cluster` (bench/scale-cluster.ts) build on. The shared server on 5432 is never touched.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const binDir = process.env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin';
const asRoot = process.getuid?.() === 0;

/** Of `bins` (and runuser, as root), those not installed: empty when a cluster can run. */
export const missingPgBinaries = (bins: string[]): string[] => {
  const missing = bins.map((b) => join(binDir, b)).filter((p) => !existsSync(p));
  if (asRoot && !existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser')) missing.push('runuser');
  return missing;
};

const portFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

/** The first `n` free ports among `candidates` (each user of this module keeps a range of its own). */
export const freePorts = async (candidates: number[], n: number): Promise<number[]> => {
  const ports: number[] = [];
  for (const p of candidates) if (ports.length < n && (await portFree(p))) ports.push(p);
  if (ports.length < n) throw new Error(`no ${n} free ports among ${candidates.join(', ')}`);
  return ports;
};

/** A PostgreSQL binary, as the postgres user when we are root; throws with its output when it fails. */
export const runPg = (bin: string, args: string[], timeoutMs = 120_000): void => {
  const cmd = asRoot ? 'runuser' : join(binDir, bin);
  const argv = asRoot ? ['-u', 'postgres', '--', join(binDir, bin), ...args] : args;
  const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: timeoutMs });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
};

/** A new temporary folder the postgres user owns. */
export const clusterDir = (prefix: string, parent = tmpdir()): string => {
  const dir = mkdtempSync(join(parent, prefix));
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  return dir;
};

export interface Cluster {
  dataDir: string;
  port: number;
  /** A connection URL to `database` on this cluster. */
  url(database?: string): string;
  start(): void;
  /** `pg_ctl stop`, `immediate` (a crash) unless told otherwise. */
  stop(mode?: 'immediate' | 'fast'): void;
  /** `pg_ctl restart -m immediate`: a crash and crash recovery. */
  restart(): void;
  /** `pg_ctl promote`: a standby leaves recovery and takes writes of its own. */
  promote(): void;
  /** The postmaster's pid (the first line of postmaster.pid): every other server process is its child. */
  postmasterPid(): number;
}

export interface ClusterOptions {
  port: number;
  /** The folder for the Unix socket and the log. */
  dir: string;
  log: string;
  /** Server options on the command line (`-c name=value …`), after the port and sockets. */
  options?: string;
  /** Milliseconds a pg_ctl or pg_basebackup run may take. */
  timeoutMs?: number;
}

const clusterAt = (dataDir: string, o: ClusterOptions): Cluster => {
  const opts = `-p ${o.port} -k ${o.dir} -c listen_addresses=127.0.0.1 ${o.options ?? ''}`.trim();
  const ctl = (...args: string[]) => runPg('pg_ctl', ['-D', dataDir, '-l', join(o.dir, o.log), ...args], o.timeoutMs);
  return {
    dataDir,
    port: o.port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${o.port}/${database}`,
    start: () => ctl('-o', opts, '-w', 'start'),
    stop: (mode = 'immediate') => ctl('-m', mode, '-w', 'stop'),
    restart: () => ctl('-o', opts, '-m', 'immediate', '-w', 'restart'),
    promote: () => ctl('-w', 'promote'),
    postmasterPid: () => Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]),
  };
};

/**
 * initdb a cluster (trust for local and replication connections from 127.0.0.1), with `conf`
 * appended to its postgresql.conf, and starts it.
 */
export const startCluster = (dataDir: string, o: ClusterOptions & { conf?: string[] }): Cluster => {
  runPg('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  if (o.conf !== undefined) appendFileSync(join(dataDir, 'postgresql.conf'), `\n${o.conf.join('\n')}\n`);
  const c = clusterAt(dataDir, o);
  c.start();
  return c;
};

/**
 * A streaming replica of `primary`: `pg_basebackup -R` (standby.signal and the primary's
 * connection; its postgresql.conf is the primary's) into `dataDir`, started. The backup's
 * checkpoint is immediate: a spread one waits for checkpoint_completion_target of the timeout.
 */
export const startReplica = (primary: Cluster, dataDir: string, o: ClusterOptions): Cluster => {
  runPg('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', dataDir, '-R', '-X', 'stream', '--checkpoint=fast', '--no-sync'], o.timeoutMs);
  const c = clusterAt(dataDir, o);
  c.start();
  return c;
};

/** Crash-stops `clusters` (those still running) and removes `dir`, their folder. */
export const removeClusters = (dir: string, clusters: Cluster[]): void => {
  for (const c of clusters) {
    try {
      c.stop();
    } catch {
      /* already stopped */
    }
  }
  rmSync(dir, { recursive: true, force: true });
};
