/**
 * Seeds N players straight into PostgreSQL for `npm run bench:scale`, set-based (generate_series
 * in SQL, nothing streamed from here): every player with 3 ledger rows that sum to their balances,
 * a quarter of them at 0 MONEY (ties), a third active today, joined over the last year; player 1 a
 * referrer with 20,000 friends (one in five still pending); 1,000 players with a linked TON wallet.
 * Balances come from a multiplicative hash of the index, so the run is repeatable.
 *
 * Built for 10M in minutes: every secondary index of users, ledger and referrals is dropped first
 * and built again after the load (from the definition the migrations gave it, so the seeded schema
 * stays the migrated one), the rows go in as `workers` parallel transactions of id ranges with
 * triggers and foreign-key checks off (`session_replication_role = replica`, as pg_restore does;
 * the rows are consistent by construction), and the indexes are built `workers` at a time. The
 * tables stay LOGGED: with wal_level = replica, `SET LOGGED` after an UNLOGGED load writes the
 * whole table to the WAL anyway, so it saves nothing here. The maintained structures the triggers
 * would have kept (the ranked view, the stats and console counters) are then built from scratch.
 */
import type { Db, Queryable } from '../server/core/db/db.ts';
import { rebuildConsoleCounters } from '../server/console/console-aggregates.ts';
import { rebuildRanks, type RankRebuild } from '../server/leaderboard/rank-view.ts';
import { rebuildStatsCache } from '../server/leaderboard/stats-cache.ts';

export const firstId = 7_000_000_000;
export const referrerId = firstId + 1;
export const friendsOfReferrer = 20_000;
export const linkedWallets = 1_000;
/** Refcodes are 6 hex digits of the index. */
const maxPlayers = 0xff_ffff;
const dayMs = 86_400_000;

export interface SeedTimes {
  workers: number;
  usersMs: number;
  referralsMs: number;
  ledgerMs: number;
  walletsMs: number;
  /** A reminders row for every player (docs/rules.md §15.4). */
  remindersMs: number;
  indexesMs: number;
  vacuumMs: number;
  /** The first build of the ranked view from scratch (its secondary indexes built after). */
  rankBuildMs: number;
  /** The stats and console counters counted from scratch (one scan each). */
  countersMs: number;
}

const timed = async (run: () => Promise<unknown>): Promise<number> => {
  const t = performance.now();
  await run();
  return Math.round(performance.now() - t);
};

/** Runs `tasks` with at most `n` at a time. */
const pool = async (n: number, tasks: (() => Promise<unknown>)[]): Promise<void> => {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, tasks.length) }, async () => {
      while (next < tasks.length) await tasks[next++]!();
    }),
  );
};

/** In its own transaction, with triggers and foreign-key checks off. */
const bulk = (db: Db, sql: string, params: unknown[]) =>
  db.transaction(async (tx) => {
    await tx.exec('SET LOCAL session_replication_role = replica');
    await tx.exec("SET LOCAL maintenance_work_mem = '256MB'");
    await tx.query(sql, params);
  });

/** Every secondary index of `tables` that backs no constraint: name and definition. */
const secondaryIndexes = async (q: Queryable, tables: string[]) =>
  (
    await q.query<{ name: string; def: string }>(
      `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
       WHERE t.relname = ANY($1::text[]) AND t.relnamespace = current_schema()::regnamespace
         AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
      [tables],
    )
  ).rows;

const ranges = (n: number, parts: number): [number, number][] => {
  const size = Math.ceil(n / parts);
  const out: [number, number][] = [];
  for (let from = 1; from <= n; from += size) out.push([from, Math.min(n, from + size - 1)]);
  return out;
};

/**
 * `marked` (bench/scale-import.ts): the users go in as an import from another system would put
 * them, with plain SQL and every trigger on, so each player is marked for the ranks job, and the
 * ranked view is left as it was (empty): the running server's job catches up.
 */
export const seedPlayers = async (db: Db, n: number, nowMs: number, workers: number, opts: { marked?: boolean } = {}): Promise<SeedTimes & { ranks?: RankRebuild }> => {
  if (n > maxPlayers) throw new Error(`scale seed: at most ${maxPlayers} players (6-digit refcodes)`);
  const friends = Math.min(friendsOfReferrer, n - 1);
  const dropped = await secondaryIndexes(db, ['users', 'ledger', 'referrals', 'daily_reminders']);
  for (const { name } of dropped) await db.exec(`DROP INDEX ${name}`);
  // Ranges of about a million players per transaction, `workers` at a time.
  const chunks = ranges(n, Math.max(workers, Math.ceil(n / 1_000_000)));
  /** One statement over every chunk of players, `workers` chunks at a time; its time. */
  // With the triggers on (foreign keys checked), the chunk holding the referrer goes first.
  const overChunks = (sql: string, params: (from: number, to: number) => unknown[], triggers = false) =>
    timed(async () => {
      const run = ([from, to]: [number, number]) => () => (triggers ? db.query(sql, params(from, to)) : bulk(db, sql, params(from, to)));
      if (triggers) await run(chunks[0]!)();
      await pool(workers, (triggers ? chunks.slice(1) : chunks).map(run));
    });
  // Joined over the last year (3 s apart): a day's new players are a day's, not everyone.
  const usersMs = await overChunks(
    `INSERT INTO users (id, refcode, ref_level, invite_cnt, referred_by, tele_username, tele_name, tele_age,
             total_earn, total_money, total_ref, total_money_ref, total_click, energy, energy_at_ms, tap_clock_ms,
             last_claimed_ms, is_claimed_welcome, created_at_ms, last_active_ms)
           SELECT $1::bigint + g, lpad(to_hex(g), 6, '0'), CASE WHEN g = 1 THEN 14 ELSE 1 END, CASE WHEN g = 1 THEN $3::int ELSE 0 END,
             CASE WHEN g BETWEEN 2 AND $3::int + 1 THEN $1::bigint + 1 END, 'p' || ($1::bigint + g), 'P', 400,
             ((g::bigint * 40503) % 5000000) / 100.0,
             CASE WHEN g % 4 = 0 THEN 0 ELSE ((g::bigint * 2654435761) % 1000000) / 100.0 END,
             0, 0, (g::bigint * 7) % 10000, 500, $2::bigint, $2::bigint - 600000, $2::bigint, true,
             $2::bigint - g::bigint * 3000, $2::bigint - (g % 3) * $6::bigint
           FROM generate_series($4::int, $5::int) AS g`,
    (from, to) => [firstId, nowMs, friends, from, to, dayMs],
    opts.marked === true,
  );
  const referralsMs = await timed(async () => {
    await bulk(
      db,
      `INSERT INTO referrals (friend_id, referrer_id, bonus, status, created_at_ms, credited_at_ms, seq, earned)
       SELECT $1::bigint + g, $1::bigint + 1, 3, CASE WHEN g % 5 = 0 THEN 'pending' ELSE 'credited' END, $3::bigint + g,
         CASE WHEN g % 5 = 0 THEN NULL ELSE $3::bigint + g END, g - 1, CASE WHEN g % 5 = 0 THEN 0 ELSE 3 END
       FROM generate_series(2, $2::int + 1) AS g`,
      [firstId, friends, nowMs - dayMs],
    );
    await db.query(`UPDATE users SET ref_pending_cnt = (SELECT count(*) FROM referrals WHERE referrer_id = $1 AND status = 'pending') WHERE id = $1`, [referrerId]);
  });
  // Three rows a player that sum to the balances, in id order (the ledger's primary key appends).
  const ledgerMs = await overChunks(
    `INSERT INTO ledger (user_id, currency, amount, kind, reference, created_at_ms)
           SELECT u.id, x.c, x.a, x.k, NULL::text, $2::bigint
           FROM users u CROSS JOIN LATERAL (VALUES ('DOLLAR', u.total_earn, 'click'), ('MONEY', u.total_money, 'welcome'), ('DOLLAR', 0::numeric, 'passive')) AS x(c, a, k)
           WHERE u.id BETWEEN $1::bigint + $3::int AND $1::bigint + $4::int`,
    (from, to) => [firstId, nowMs, from, to],
  );
  // 1,000 linked wallets spread over the table, on players with MONEY (eligible for the airdrop).
  const walletsMs = await timed(() =>
    bulk(
      db,
      `INSERT INTO ton_wallets (user_id, address, public_key, wallet_version, linked_at_ms)
       SELECT $1::bigint + g, '0:' || encode(sha256(int8send(g)), 'hex'), '', 'v4R2', $3::bigint
       FROM (SELECT DISTINCT CASE WHEN g % 4 = 0 THEN g + 1 ELSE g END AS g
             FROM (SELECT 1 + k * GREATEST(1, $2::int / $4::int) AS g FROM generate_series(0, $4::int - 1) AS k) s) w
       WHERE g <= $2::int`,
      [firstId, n, nowMs, linkedWallets],
    ),
  );
  // Every player has a reminders row, due at a moment spread over the day that starts a day from
  // now, so the reminders job (docs/rules.md §15.4) has every player in its index and none due
  // during the run (a 10M run takes more than an hour) until the bench makes some due.
  const remindersMs = await overChunks(
    `INSERT INTO daily_reminders (user_id, seen_hour, remind_at_ms)
     SELECT $1::bigint + g, $2::bigint / 3600000 - 1, $2::bigint + $5::bigint + (g::bigint * 2654435761) % $5::bigint
     FROM generate_series($3::int, $4::int) AS g`,
    (from, to) => [firstId, nowMs, from, to, dayMs],
  );
  const indexesMs = await timed(() =>
    pool(
      workers,
      dropped.map(({ def }) => () =>
        db.transaction(async (tx) => {
          await tx.exec("SET LOCAL maintenance_work_mem = '512MB'");
          await tx.exec(def);
        }),
      ),
    ),
  );
  // Planner statistics and the visibility map, as autovacuum would leave a settled table.
  const vacuumMs = await timed(() => pool(workers, ['users', 'referrals', 'ledger', 'ton_wallets', 'daily_reminders'].map((t) => () => db.exec(`VACUUM ANALYZE ${t}`))));
  // The ranked view from scratch, its secondary indexes built after the rows (as above).
  let ranks: RankRebuild | undefined;
  const rankBuildMs = await timed(async () => {
    if (opts.marked === true) return;
    const rankIndexes = await secondaryIndexes(db, ['rank_entries']);
    for (const { name } of rankIndexes) await db.exec(`DROP INDEX ${name}`);
    ranks = await rebuildRanks(db, nowMs);
    await pool(workers, rankIndexes.map(({ def }) => () => db.exec(def)));
    await db.exec('VACUUM ANALYZE rank_entries');
    await db.exec('ANALYZE rank_blocks');
  });
  const countersMs = await timed(async () => {
    await rebuildStatsCache(db, nowMs);
    await rebuildConsoleCounters(db, nowMs);
  });
  return { workers, usersMs, referralsMs, ledgerMs, walletsMs, remindersMs, indexesMs, vacuumMs, rankBuildMs, countersMs, ...(ranks !== undefined ? { ranks } : {}) };
};
