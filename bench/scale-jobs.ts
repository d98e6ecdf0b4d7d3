/**
 * The figures `npm run bench:scale` takes from the database beside the calls: the jobs that grow
 * with players, each timed alone (the ranks job, the Redis mirror, the stats and console folds,
 * integrity, the airdrop snapshot, reminders); storage per player; rows and WAL per click batch;
 * dead tuples on the hot tables.
 */
import { takeSnapshot } from '../server/airdrop/snapshot.ts';
import { rebuildConsoleCounters, refreshConsoleAggregates } from '../server/console/console-aggregates.ts';
import { loadConfig } from '../server/background/settings.ts';
import type { Db } from '../server/core/db/db.ts';
import { openRedis } from '../server/core/redis.ts';
import { runReminders } from '../server/daily/reminders.ts';
import { integrityRulesOf, refreshIntegrity } from '../server/integrity/exports.ts';
import { applyPendingRanks } from '../server/leaderboard/rank-view.ts';
import { publishRanks, ranksVersionKey, syncRedisRanks } from '../server/leaderboard/redis-ranks.ts';
import { rebuildStatsCache, refreshStatsCache } from '../server/leaderboard/stats-cache.ts';
import { hotTables } from './scale-calls.ts';
import { firstId } from './scale-seed.ts';

export interface JobTimes {
  /** The ranks job applying the marks of 1,000 and of 10,000 MONEY changes. */
  rankApply1kMs: number;
  rankApply10kMs: number;
  redisPublishMs: number;
  redisCatchUp1kMs: number;
  statsFoldMs: number;
  statsRebuildMs: number;
  consoleMs: number;
  consoleRebuildMs: number;
  integrityMs: number | null;
  /** Of it, the group signals (the referral tree, sessions and twins, the group flags: server/integrity/groups.ts). */
  integrityGroupMs?: number | null;
  airdropMs: number | null;
  airdropWallets: number;
  /** The reminders job's run with 1,000 players due, and with 10,000 due (one run decides REMINDERS_BATCH of them). */
  reminders1kMs?: number;
  reminders10kMs?: number;
  remindersBatch?: number;
}

export const timedMs = async <T>(run: () => Promise<T>): Promise<[number, T]> => {
  const t = performance.now();
  const r = await run();
  return [performance.now() - t, r];
};

/** `count` players' MONEY raised (with their ledger rows), spread over the table: marks for the ranks job. */
const changeMoney = async (db: Db, players: number, count: number, salt: number, nowMs: number) => {
  await db.transaction(async (tx) => {
    await tx.query(
      `WITH p AS (SELECT DISTINCT $1::bigint + 1 + ((k::bigint * 2654435761 + $4::bigint) % $2::bigint) AS id FROM generate_series(1, $3::int) AS k),
       up AS (UPDATE users u SET total_money = u.total_money + 1 + (u.id % 7) FROM p WHERE u.id = p.id RETURNING u.id, 1 + (u.id % 7) AS a)
       INSERT INTO ledger (user_id, currency, amount, kind, reference, created_at_ms) SELECT id, 'MONEY', a, 'task', 'bench', $5::bigint FROM up`,
      [firstId, players, count, salt, nowMs],
    );
  });
};

/** The jobs timed alone on `db`, seeded with `players`; the Redis ones on `redisUrl` under a prefix of their own. */
export const timeJobs = async (db: Db, players: number, redisUrl: string): Promise<JobTimes> => {
  // The server's default settings (the integrity rules, the reminders batch); the URL is never opened.
  const defaults = loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1/money' });
  const now = Date.now();
  await changeMoney(db, players, 1_000, 1, now);
  const [rankApply1kMs] = await timedMs(() => applyPendingRanks(db, now));
  await changeMoney(db, players, 10_000, 2, now);
  const [rankApply10kMs] = await timedMs(() => applyPendingRanks(db, now));
  const probe = openRedis(redisUrl, { prefix: `money-bench:${process.pid}:probe:` });
  let redisPublishMs = Number.NaN;
  let redisCatchUp1kMs = Number.NaN;
  try {
    if (await probe.waitReady(5_000)) {
      [redisPublishMs] = await timedMs(() => publishRanks(db, probe));
      await changeMoney(db, players, 1_000, 3, now);
      await applyPendingRanks(db, now);
      const [ms, sync] = await timedMs(() => syncRedisRanks(db, probe));
      if (sync.kind === 'catch-up') redisCatchUp1kMs = ms;
    }
  } catch (err) {
    console.error('  Redis timing failed:', err);
  } finally {
    await probe.client.unlink(`${probe.prefix}ranks`, ranksVersionKey(probe)).catch(() => {});
    await probe.close();
  }
  const [statsFoldMs] = await timedMs(() => refreshStatsCache(db, now));
  const [statsRebuildMs] = await timedMs(() => rebuildStatsCache(db, now));
  const [consoleMs] = await timedMs(() => refreshConsoleAggregates(db, now));
  const [consoleRebuildMs] = await timedMs(() => rebuildConsoleCounters(db, now));
  let integrityMs: number | null = null;
  let integrityGroupMs: number | null = null;
  try {
    let run: Awaited<ReturnType<typeof refreshIntegrity>>;
    [integrityMs, run] = await timedMs(() => refreshIntegrity(db, now, integrityRulesOf(defaults)));
    integrityGroupMs = run.groupMs;
  } catch (err) {
    console.error('  integrity signals failed:', err);
  }
  // The reminders job: `due` players' moment set to now, then one run as the job runs it (docs/rules.md §15.4).
  const remindersBatch = defaults.REMINDERS_BATCH;
  const reminderRun = async (due: number, salt: number) => {
    await db.query(
      `UPDATE daily_reminders SET remind_at_ms = $5::bigint - 1 WHERE user_id IN
         (SELECT DISTINCT $1::bigint + 1 + ((k::bigint * 2654435761 + $4::bigint) % $2::bigint) FROM generate_series(1, $3::int) AS k)`,
      [firstId, players, due, salt, now],
    );
    const [ms] = await timedMs(() => db.transaction((tx) => runReminders(tx, { batch: remindersBatch, miniAppUrl: 'https://example.org/app', awayMs: 3_600_000 }, now)));
    return ms;
  };
  const reminders1kMs = await reminderRun(1_000, 11);
  const reminders10kMs = await reminderRun(10_000, 12);
  // What the runs queued is not sent, and the players left due are due tomorrow: the server's own
  // jobs then find nothing due while the calls are measured (the bench has no Bot API).
  await db.query(`UPDATE broadcast_recipients SET status = 'failed', error = 'bench', done_at_ms = $1 WHERE status = 'pending'`, [now]);
  await db.query('UPDATE broadcasts SET finished_at_ms = $1 WHERE finished_at_ms IS NULL', [now]);
  await db.query('UPDATE daily_reminders SET remind_at_ms = $1::bigint + 86400000 WHERE remind_at_ms <= $1', [now]);
  let airdropMs: number | null = null;
  let airdropWallets = 0;
  try {
    const startFrom = Math.floor(now / 1000) + 3_600;
    const [ms, r] = await timedMs(() => takeSnapshot(db, { round: 1, startFrom, expireAt: startFrom + 30 * 86_400 }, now));
    airdropMs = ms;
    airdropWallets = r.summary.wallets;
  } catch (err) {
    console.error('  airdrop snapshot failed:', err);
  }
  return { rankApply1kMs, rankApply10kMs, redisPublishMs, redisCatchUp1kMs, statsFoldMs, statsRebuildMs, consoleMs, consoleRebuildMs, integrityMs, integrityGroupMs, airdropMs, airdropWallets, reminders1kMs, reminders10kMs, remindersBatch };
};

export const storageBytes = async (db: Db, players: number) => {
  const r = await db.query<{ t: string; total: string; idx: string }>(
    `SELECT t, pg_total_relation_size(t)::bigint::text AS total, pg_indexes_size(t)::bigint::text AS idx
     FROM unnest(ARRAY['users', 'ledger', 'referrals', 'rank_entries', 'rank_blocks']) AS t`,
  );
  const by = Object.fromEntries(r.rows.map((x) => [x.t, { total: Number(x.total), idx: Number(x.idx) }]));
  const per = (b: number) => Math.round(b / players);
  return {
    users: per(by.users!.total),
    ledger: per(by.ledger!.total),
    referrals: per(by.referrals!.total),
    ranks: per(by.rank_entries!.total + by.rank_blocks!.total),
    indexes: per(by.users!.idx + by.ledger!.idx + by.referrals!.idx + by.rank_entries!.idx + by.rank_blocks!.idx),
  };
};

export const writesSoFar = async (db: Db): Promise<number> => {
  await db.query('SELECT pg_stat_clear_snapshot()');
  const r = await db.query<{ w: number }>(
    "SELECT COALESCE(sum(n_tup_ins + n_tup_upd + n_tup_del), 0)::bigint AS w FROM pg_stat_user_tables WHERE relname NOT IN ('rank_entries', 'rank_blocks', 'rank_meta', 'rank_dirty')",
  );
  return Number(r.rows[0]!.w);
};

export const walLsn = async (db: Db): Promise<string> => (await db.query<{ l: string }>('SELECT pg_current_wal_lsn()::text AS l')).rows[0]!.l;
export const walSince = async (db: Db, from: string): Promise<number> =>
  Number((await db.query<{ b: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::bigint::text AS b', [from])).rows[0]!.b);

export const deadTuples = async (db: Db) => {
  await db.query('SELECT pg_stat_clear_snapshot()');
  const r = await db.query<{ relname: string; dead: number; runs: number }>(
    'SELECT relname, n_dead_tup::bigint AS dead, autovacuum_count::bigint AS runs FROM pg_stat_user_tables WHERE relname = ANY($1::text[])',
    [hotTables],
  );
  return Object.fromEntries(r.rows.map((x) => [x.relname, { dead: Number(x.dead), runs: Number(x.runs) }]));
};
