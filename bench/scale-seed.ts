/**
 * Seeds N players straight into PostgreSQL for `npm run bench:scale`, set-based (generate_series),
 * as the issue measured them: every player with 3 ledger rows that sum to their balances, a
 * quarter of them at 0 MONEY (ties), and player 1 a referrer with 20,000 friends (one in five
 * still pending). Balances come from a multiplicative hash of the index, so the run is repeatable.
 */
import type { Db, Queryable } from '../server/core/db/db.ts';

export const firstId = 7_000_000_000;
export const referrerId = firstId + 1;
export const friendsOfReferrer = 20_000;

export interface SeedTimes {
  usersMs: number;
  referralsMs: number;
  ledgerMs: number;
  indexesMs: number;
  vacuumMs: number;
}

const timed = async (run: () => Promise<unknown>): Promise<number> => {
  const t = performance.now();
  await run();
  return Math.round(performance.now() - t);
};

export const seedPlayers = async (db: Db, n: number, nowMs: number): Promise<SeedTimes> => {
  let times: Omit<SeedTimes, 'vacuumMs'> | undefined;
  // One transaction with foreign-key triggers off (a bulk load of rows that are consistent by
  // construction), as pg_restore does.
  await db.transaction(async (tx) => {
    await tx.exec('SET LOCAL session_replication_role = replica');
    times = await insertAll(tx, n, nowMs);
  });
  // Planner statistics and the visibility map, as autovacuum would leave a settled table.
  const vacuumMs = await timed(async () => {
    for (const table of ['users', 'referrals', 'ledger']) await db.exec(`VACUUM ANALYZE ${table}`);
  });
  return { ...times!, vacuumMs };
};

/** The largest secondary indexes on the seeded rows (users and ledger). */
const bulkIndexes = ['users_money_rank_idx', 'users_referred_by_idx', 'ledger_user_id_idx'];

const insertAll = async (db: Queryable, n: number, nowMs: number): Promise<Omit<SeedTimes, 'vacuumMs'>> => {
  const friends = Math.min(friendsOfReferrer, n - 1);
  // Secondary indexes are built once after the bulk insert (faster than row by row), each from the
  // definition the migrations gave it, so the seeded schema stays the migrated one.
  const rebuilt = await db.query<{ indexname: string; indexdef: string }>(
    'SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname = ANY($1::text[])',
    [bulkIndexes],
  );
  if (rebuilt.rows.length !== bulkIndexes.length) throw new Error(`scale seed: expected the indexes ${bulkIndexes.join(', ')}`);
  for (const { indexname } of rebuilt.rows) await db.exec(`DROP INDEX ${indexname}`);
  const usersMs = await timed(() =>
    db.query(
      `INSERT INTO users (id, refcode, ref_level, invite_cnt, referred_by, tele_username, tele_name, tele_age,
         total_earn, total_money, total_ref, total_money_ref, total_click, energy, energy_at_ms, tap_clock_ms,
         last_claimed_ms, is_claimed_welcome, created_at_ms)
       SELECT $1::bigint + g, lpad(to_hex(g), 6, '0'), CASE WHEN g = 1 THEN 14 ELSE 1 END, CASE WHEN g = 1 THEN $4::int ELSE 0 END,
         CASE WHEN g BETWEEN 2 AND $4::int + 1 THEN $1::bigint + 1 END, 'p' || ($1::bigint + g), 'P', 400,
         ((g::bigint * 40503) % 5000000) / 100.0,
         CASE WHEN g % 4 = 0 THEN 0 ELSE ((g::bigint * 2654435761) % 1000000) / 100.0 END,
         0, 0, (g::bigint * 7) % 10000, 500, $3::bigint, $3::bigint - 600000, $3::bigint, true, $3::bigint - g
       FROM generate_series(1, $2::int) AS g`,
      [firstId, n, nowMs, friends],
    ),
  );
  const referralsMs = await timed(async () => {
    await db.query(
      `INSERT INTO referrals (friend_id, referrer_id, bonus, status, created_at_ms, credited_at_ms, seq, earned)
       SELECT $1::bigint + g, $1::bigint + 1, 3, CASE WHEN g % 5 = 0 THEN 'pending' ELSE 'credited' END, $3::bigint + g,
         CASE WHEN g % 5 = 0 THEN NULL ELSE $3::bigint + g END, g - 1, CASE WHEN g % 5 = 0 THEN 0 ELSE 3 END
       FROM generate_series(2, $2::int + 1) AS g`,
      [firstId, friends, nowMs - 86_400_000],
    );
    await db.query(
      `UPDATE users SET ref_pending_cnt = (SELECT count(*) FROM referrals WHERE referrer_id = $1 AND status = 'pending') WHERE id = $1`,
      [referrerId],
    );
  });
  const ledgerMs = await timed(async () => {
    await db.query(
      `INSERT INTO ledger (user_id, currency, amount, kind, reference, created_at_ms)
       SELECT id, 'DOLLAR', total_earn, 'click', NULL::text, $1::bigint FROM users
       UNION ALL SELECT id, 'MONEY', total_money, 'welcome', NULL, $1::bigint FROM users
       UNION ALL SELECT id, 'DOLLAR', 0::numeric, 'passive', NULL, $1::bigint FROM users`,
      [nowMs],
    );
  });
  const indexesMs = await timed(async () => {
    for (const { indexdef } of rebuilt.rows) await db.exec(indexdef);
  });
  return { usersMs, referralsMs, ledgerMs, indexesMs };
};
