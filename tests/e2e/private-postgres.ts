/**
 * A PostgreSQL cluster of the test's own (initdb + pg_ctl on a spare port, in a temp directory), so
 * a test may crash, restart and stop it: the shared server on 5432 is never touched. As root the
 * binaries run as the `postgres` user (runuser). `missingBinaries` names what is absent so the
 * suite can say why it is skipped.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { removeDir, startServer, tempDataDir, type RunningServer } from './harness.ts';

const binDir = process.env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin';
const asRoot = process.getuid?.() === 0;
const needed = ['initdb', 'pg_ctl'].map((b) => join(binDir, b));

/** The binaries this helper needs that are not installed (empty when it can run). */
export const missingBinaries = (): string[] => {
  const missing = needed.filter((p) => !existsSync(p));
  if (asRoot && !existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser')) missing.push('runuser');
  return missing;
};

/** Spare ports for private clusters (the tests' own range), tried in order. */
const spareports = [55412, 55413, 55414, 55415, 55416, 55417, 55418, 55419];

const portFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

export interface PrivatePostgres {
  url: string;
  port: number;
  /** Crash-stops the server (`pg_ctl stop -m immediate`): connections are cut mid-statement. */
  stop(): void;
  start(): void;
  /** `pg_ctl restart -m immediate`: a crash and crash recovery. */
  restart(): void;
  /** Stops the server and removes its directory. */
  destroy(): void;
}

const run = (bin: string, args: string[]): void => {
  const cmd = asRoot ? 'runuser' : join(binDir, bin);
  const argv = asRoot ? ['-u', 'postgres', '--', join(binDir, bin), ...args] : args;
  const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
};

/** initdb and start a fresh cluster on the first free spare port. */
export const startPrivatePostgres = async (): Promise<PrivatePostgres> => {
  let port: number | undefined;
  for (const p of spareports) if (await portFree(p)) { port = p; break; }
  if (port === undefined) throw new Error(`no free port among ${spareports.join(', ')}`);
  const dir = mkdtempSync(join(tmpdir(), 'money-pg-'));
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const ctl = (...args: string[]) => run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), ...args]);
  const start = () => ctl('-o', opts, '-w', 'start');
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop: () => ctl('-m', 'immediate', '-w', 'stop'),
    start,
    restart: () => ctl('-o', opts, '-m', 'immediate', '-w', 'restart'),
    destroy: () => {
      try {
        ctl('-m', 'immediate', '-w', 'stop');
      } catch {
        /* already stopped */
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

/** A suite on its own cluster: the cluster, a data directory, and the one server process it starts on them. */
export interface PrivatePostgresSuite {
  readonly pg: PrivatePostgres;
  readonly dataDir: string;
  /** Starts the suite's server on the cluster (stopped after the suite). */
  startServer(env?: Record<string, string>): Promise<RunningServer>;
}

/** Starts the cluster before the suite's tests; after them stops the server, destroys the cluster and removes the data directory. */
export const privatePostgresSuite = (): PrivatePostgresSuite => {
  let pg: PrivatePostgres | undefined;
  let server: RunningServer | undefined;
  const dataDir = tempDataDir();
  beforeAll(async () => {
    pg = await startPrivatePostgres();
  });
  afterAll(async () => {
    await server?.stop();
    pg?.destroy();
    removeDir(dataDir);
  });
  const cluster = (): PrivatePostgres => {
    if (pg === undefined) throw new Error('the private cluster is not started yet');
    return pg;
  };
  return {
    get pg() {
      return cluster();
    },
    dataDir,
    startServer: async (env) => {
      server = await startServer({ dataDir, databaseUrl: cluster().url, ...(env !== undefined ? { env } : {}) });
      return server;
    },
  };
};
