/**
 * The ranks job (docs/scaling.md): rebuilds the leaderboard snapshot `leaderboard_ranks` from
 * users in one ordered pass, then swaps it in with a rename, so readers never wait for the build
 * and never see half of one. A build is claimed in `leaderboard_builds` with one conditional
 * UPDATE, so N processes build once. The next build is due 20 build-durations after the last one
 * started (at least 1 s, so ranks are near-live on a small table) and at most 60 s minus its
 * duration: a rank is never more than 60 s stale while a build takes under 30 s.
 * With Redis, each build is also published to the sorted set (server/leaderboard/redis-ranks.ts).
 */
import type { Db } from '../core/db/db.ts';
import { publishRanks, syncChangedRanks, type LedgerCursor } from './redis-ranks.ts';
import type { RedisHandle } from '../core/redis.ts';
import { transaction } from '../core/db/transaction.ts';

export const rankMaxStaleMs = 60_000;
const minIntervalMs = 1_000;
const durationsPerInterval = 20;
/** A claim older than this whose build never finished (a crashed process) may be taken over. */
const abandonedClaimMs = 5 * 60_000;

export interface RankBuild {
  players: number;
  durationMs: number;
  /** The newest ledger row id when the build started: changes after it are not in the build. */
  ledgerMark: number;
}

/** Rebuilds the snapshot now (no claim): the job's work, and what tests call directly. */
export const buildRankSnapshot = async (db: Db, nowMs: number): Promise<RankBuild> => {
  const started = performance.now();
  const mark = await db.query<{ m: number | null }>('SELECT max(id) AS m FROM ledger');
  await db.exec('DROP TABLE IF EXISTS leaderboard_next');
  // The window runs over users_money_rank_idx (total_money DESC, id ASC): one ordered scan, no sort.
  await db.exec(
    `CREATE UNLOGGED TABLE leaderboard_next AS
       SELECT (row_number() OVER (ORDER BY total_money DESC, id ASC))::int AS rank, id AS user_id, total_money
       FROM users ORDER BY total_money DESC, id ASC`,
  );
  await db.exec('ALTER TABLE leaderboard_next ADD CONSTRAINT leaderboard_next_pkey PRIMARY KEY (rank)');
  await db.exec('CREATE UNIQUE INDEX leaderboard_next_user_idx ON leaderboard_next (user_id)');
  // Planner statistics for the new table (a sample), and no parallel workers: a page reads ~11
  // rows by index, and starting workers would cost more than the read (seen at 100k players).
  await db.exec('ANALYZE leaderboard_next');
  await db.exec('ALTER TABLE leaderboard_next SET (parallel_workers = 0)');
  const players = await db.query<{ n: number }>('SELECT COALESCE(max(rank), 0)::int AS n FROM leaderboard_next');
  await transaction(db, async (tx) => {
    await tx.exec(
      `DROP TABLE leaderboard_ranks;
       ALTER TABLE leaderboard_next RENAME TO leaderboard_ranks;
       ALTER INDEX leaderboard_next_pkey RENAME TO leaderboard_ranks_pkey;
       ALTER INDEX leaderboard_next_user_idx RENAME TO leaderboard_ranks_user_idx`,
    );
  });
  const durationMs = Math.round(performance.now() - started);
  const n = players.rows[0]?.n ?? 0;
  const ledgerMark = Number(mark.rows[0]?.m ?? 0);
  await db.query('UPDATE leaderboard_builds SET built_at_ms = $1, duration_ms = $2, players = $3, ledger_mark = $4 WHERE id = 1', [nowMs, durationMs, n, ledgerMark]);
  return { players: n, durationMs, ledgerMark };
};

/** Claims the next build when it is due; true when this caller is the one to build. */
export const claimRankBuild = async (db: Db, nowMs: number): Promise<boolean> => {
  const r = await db.query(
    `UPDATE leaderboard_builds SET claimed_at_ms = $1
     WHERE id = 1
       AND $1 >= claimed_at_ms + GREATEST($2, LEAST($3 - duration_ms, $4 * duration_ms))
       AND (built_at_ms >= claimed_at_ms OR $1 >= claimed_at_ms + $5)`,
    [nowMs, minIntervalMs, rankMaxStaleMs, durationsPerInterval, abandonedClaimMs],
  );
  return r.rowCount > 0;
};

/** The job's tick: builds when due; null when not due or another process has it. */
export const runRankSnapshot = async (db: Db, nowMs: number): Promise<RankBuild | null> => {
  if (!(await claimRankBuild(db, nowMs))) return null;
  try {
    return await buildRankSnapshot(db, nowMs);
  } catch (err) {
    // Give the claim back, so the next tick (here or in another process) retries at once.
    await db.query('UPDATE leaderboard_builds SET claimed_at_ms = built_at_ms WHERE id = 1').catch(() => {});
    throw err;
  }
};

const lastBuild = async (db: Db): Promise<RankBuild | null> => {
  const r = await db.query<{ players: number; duration_ms: number; ledger_mark: number; built_at_ms: number }>(
    'SELECT players, duration_ms, ledger_mark, built_at_ms FROM leaderboard_builds WHERE id = 1',
  );
  const row = r.rows[0];
  return row === undefined || Number(row.built_at_ms) === 0 ? null : { players: row.players, durationMs: row.duration_ms, ledgerMark: Number(row.ledger_mark) };
};

/**
 * The job as the scheduler runs it (every second): builds when due; with Redis, publishes each of
 * its builds and, between builds, re-scores the players whose balance changed (live ranks).
 */
export const ranksJob = (db: Db, redis?: RedisHandle) => {
  const cursor: LedgerCursor = { prev: 0, seen: 0 };
  let published = false;
  return async (nowMs: number): Promise<RankBuild | null> => {
    const build = await runRankSnapshot(db, nowMs);
    if (redis === undefined || !redis.ready()) return build;
    // A new build, or the last one (another process's, or from before Redis was reachable).
    const toPublish = build ?? (published ? null : await lastBuild(db));
    if (toPublish !== null) {
      await publishRanks(db, redis, toPublish.players);
      cursor.prev = cursor.seen = toPublish.ledgerMark;
      published = true;
    } else await syncChangedRanks(db, redis, cursor);
    return build;
  };
};
