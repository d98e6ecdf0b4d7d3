/**
 * What `npm run bench:scale` drives and what it keeps of a size (bench/scale.bench.ts): the calls a
 * player makes, how each is driven, and the shape of the figures that bench/scale-report.ts writes.
 */
import type { JobTimes } from './scale-jobs.ts';
import { firstId, referrerId, type SeedTimes } from './scale-seed.ts';

/** Seconds each call is driven for, after 400 warm-up requests. */
export const durationS = Number(process.env.BENCH_DURATION_S ?? 8);
export const inFlight = 16;
/** The tables whose dead tuples are watched: the ones every click or claim writes. */
export const hotTables = ['users', 'ledger', 'click_batches', 'stats_deltas', 'rank_entries', 'rank_dirty'];
/**
 * The server's modes: on PostgreSQL alone, with Redis (REDIS_URL), and with the social reads on a
 * streaming replica (DATABASE_REPLICA_URL; `--replica` only).
 */
export type Mode = 'postgres' | 'redis' | 'replica';

export interface Call {
  name: string;
  method: 'GET' | 'POST';
  auth: boolean;
  /** The path (after the API prefix) of request n. */
  path: (n: number, players: number) => string;
  body?: (n: number) => string;
  /** Which player sends request n. */
  player?: (n: number, players: number) => number;
}

// A deterministic spread of players over the whole table (Knuth's multiplicative hash).
export const anyPlayer = (n: number, players: number): number => firstId + 1 + ((n * 2_654_435_761) % players);
export const lastPage = (players: number) => Math.ceil(players / 10);

export const calls_: Call[] = [
  { name: 'GET status', method: 'GET', auth: true, path: () => '' },
  { name: 'GET /leaderboard page 1 + own rank (any player)', method: 'GET', auth: true, path: () => '/leaderboard?page=1' },
  { name: 'GET /leaderboard page 5,000', method: 'GET', auth: true, path: () => '/leaderboard?page=5000' },
  { name: 'GET /leaderboard last page', method: 'GET', auth: true, path: (_, p) => `/leaderboard?page=${lastPage(p)}` },
  {
    name: 'GET /get-ref-users (20,000 friends, every page)',
    method: 'GET',
    auth: true,
    path: (n, p) => `/get-ref-users?page=${1 + (n % Math.ceil(Math.min(20_000, p - 1) / 10))}`,
    player: () => referrerId,
  },
  { name: 'GET /get-my-refLink', method: 'GET', auth: true, path: () => '/get-my-refLink' },
  { name: 'GET /tasks', method: 'GET', auth: true, path: () => '/tasks?type=SOCIAL' },
  { name: 'POST /click (3 taps)', method: 'POST', auth: true, path: () => '/click', body: (n) => `{"click":3,"batchId":"s${n}-${Date.now()}"}` },
  { name: 'GET /public/stats (no auth)', method: 'GET', auth: false, path: () => '/public/stats' },
];

export interface Measured {
  p50: number;
  p99: number;
  rps: number;
  bad: number;
  /** Of the bad, the 503s of load shedding (the server refusing work while its event loop lags). */
  shed: number;
  total: number;
  apiCpuMsPerReq: number;
  /** Every postgres process on the machine. */
  pgCpuMsPerReq: number;
  /** On --private-cluster: the private primary's processes alone, and the replica's (--replica). */
  primaryCpuMsPerReq?: number;
  replicaCpuMsPerReq?: number;
}

export interface ServerRun {
  calls: Record<string, Measured>;
  /** Seconds of money_job_duration_seconds per second of the run, by job: its share of one core at most. */
  jobShare: Record<string, number>;
  /** From a MONEY change committed to the player's own rank showing it. */
  stalenessMs: number;
  /** In the replica mode: the server's switches of the social reads back to the primary during the run (money_db_replica_fallbacks_total). */
  replicaFallbacks?: number;
}

export interface SizeResult {
  players: number;
  measuredAt: string;
  seed: SeedTimes;
  jobs: JobTimes;
  /** Bytes per player: each table with its indexes, and the indexes alone. */
  bytes: { users: number; ledger: number; referrals: number; ranks: number; indexes: number };
  rowsPerClick: number;
  walPerClick: number;
  vacuum: Record<string, { before: number; after: number; runs: number }>;
  runs: Record<'postgres' | 'redis', ServerRun> & { replica?: ServerRun };
  /** Measured on the private primary (--private-cluster, ops/postgresql-primary.conf), not the shared server. */
  privateCluster?: boolean;
  /** The cluster's shared_buffers (ops/postgresql-primary.conf sets a 10M primary's). */
  sharedBuffers?: string;
  /** The cluster's autovacuum setting: off, dead tuples are only what the run left, and the bench vacuums after its job timings. */
  autovacuum: boolean;
  load: [number, number];
  cores: number;
}
