/** What the benchmarks share: their PostgreSQL, autocannon's result shape and CPU time from Linux /proc. */
import { createRequire } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';

/** The PostgreSQL the benches write to: DATABASE_URL, or the local server's `test` database. */
export const benchPgUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1_000;

/**
 * utime + stime (ms) of one /proc/<pid>/stat line, plus with `reaped` the CPU of its children that
 * ended and were waited for (cutime + cstime); USER_HZ = 100 on Linux.
 */
const statCpuMs = (stat: string, reaped = false): number => {
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12]) + (reaped ? Number(f[13]) + Number(f[14]) : 0)) * 10;
};

/** CPU time (ms) one process has used so far. */
export const processCpuMs = (pid: number): number => statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));

/** CPU time (ms), reaped children's included, of every process whose /proc stat line `pick` accepts. */
const cpuMsOf = (pick: (pid: number, stat: string) => boolean): number => {
  let ms = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (pick(Number(pid), stat)) ms += statCpuMs(stat, true);
    } catch {
      // The process ended while we looked.
    }
  }
  return ms;
};

/**
 * CPU time (ms) used so far by all PostgreSQL server processes on this machine (Linux /proc),
 * those that ended included: a backend's time moves to the postmaster's reaped-children counters
 * when it exits, so a pool that closes its connections during a run is still counted.
 */
export const postgresCpuMs = (): number => cpuMsOf((_, stat) => stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).startsWith('postgres'));

/**
 * CPU time (ms) used so far by a process and its children, those that ended included: for one
 * PostgreSQL cluster, its postmaster (the first line of postmaster.pid in its data folder) and
 * every backend and worker, which are all the postmaster's children.
 */
export const processTreeCpuMs = (rootPid: number): number =>
  cpuMsOf((pid, stat) => pid === rootPid || Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === rootPid);

export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
  statusCodeStats?: Record<string, { count: number }>;
}
export type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;
export const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/**
 * The taps the answers acknowledged against the batches the server stored: `lost` counts taps an
 * answer accepted that its stored batch lacks; `storedInBatches` is what the batches hold in all.
 */
export const tallyAcknowledged = (answered: Iterable<[string, number]>, stored: Record<string, number>) => {
  let acceptedInAnswers = 0;
  let lost = 0;
  for (const [batchId, accepted] of answered) {
    acceptedInAnswers += accepted;
    lost += Math.max(0, accepted - (stored[batchId] ?? 0));
  }
  return { acceptedInAnswers, lost, storedInBatches: Object.values(stored).reduce((a, b) => a + b, 0) };
};
