/**
 * A PostgreSQL cluster of the test's own (initdb + pg_ctl on a spare port, in a temp directory), so
 * a test may crash, restart and stop it: the shared server on 5432 is never touched. As root the
 * binaries run as the `postgres` user (runuser). `missingBinaries` names what is absent so the
 * suite can say why it is skipped.
 */
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { removeDir, startServer, tempDataDir, type RunningServer } from './harness.ts';
import { clusterDir, freePorts, missingPgBinaries, removeClusters, startCluster } from './pg-cluster.ts';

/** The binaries this helper needs that are not installed (empty when it can run). */
export const missingBinaries = (): string[] => missingPgBinaries(['initdb', 'pg_ctl']);

/** Spare ports for private clusters (the tests' own range), tried in order. */
const spareports = [55412, 55413, 55414, 55415, 55416, 55417, 55418, 55419];

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

/** initdb and start a fresh cluster on the first free spare port. */
export const startPrivatePostgres = async (): Promise<PrivatePostgres> => {
  const [port] = (await freePorts(spareports, 1)) as [number];
  const dir = clusterDir('money-pg-');
  const c = startCluster(join(dir, 'data'), { port, dir, log: 'log', options: '-c fsync=off', timeoutMs: 60_000 });
  return {
    url: c.url(),
    port,
    stop: () => c.stop(),
    start: () => c.start(),
    restart: () => c.restart(),
    destroy: () => removeClusters(dir, [c]),
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
