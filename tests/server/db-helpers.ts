import type { Db } from '../../server/db/db.ts';

/** Sets a player's balances and levels directly (test setup only; the ledger gets a matching 'test' row). */
export const setBalances = async (db: Db, userId: number, v: { totalEarn?: string; totalMoney?: string; levels?: Record<string, number> }) => {
  await db.transaction(async (tx) => {
    if (v.totalEarn !== undefined) {
      await tx.query(
        `INSERT INTO ledger (user_id, currency, amount, kind, created_at_ms)
         SELECT id, 'DOLLAR', $2::numeric - total_earn, 'test', 0 FROM users WHERE id = $1`,
        [userId, v.totalEarn],
      );
      await tx.query('UPDATE users SET total_earn = $2 WHERE id = $1', [userId, v.totalEarn]);
    }
    if (v.totalMoney !== undefined) {
      await tx.query(
        `INSERT INTO ledger (user_id, currency, amount, kind, created_at_ms)
         SELECT id, 'MONEY', $2::numeric - total_money, 'test', 0 FROM users WHERE id = $1`,
        [userId, v.totalMoney],
      );
      await tx.query('UPDATE users SET total_money = $2 WHERE id = $1', [userId, v.totalMoney]);
    }
    if (v.levels !== undefined) await tx.query('UPDATE users SET levels = $2::jsonb WHERE id = $1', [userId, JSON.stringify(v.levels)]);
  });
};

/** True when, for every given player (or all), each currency's ledger sums to the balance. */
export const ledgerMatchesBalances = async (db: Db, userIds?: number[]): Promise<boolean> => {
  const r = await db.query<{ id: number }>(
    `SELECT u.id FROM users u
     LEFT JOIN (SELECT user_id, sum(amount) FILTER (WHERE currency = 'DOLLAR') AS d, sum(amount) FILTER (WHERE currency = 'MONEY') AS m
                FROM ledger GROUP BY user_id) l ON l.user_id = u.id
     WHERE ($1::bigint[] IS NULL OR u.id = ANY($1::bigint[]))
       AND (u.total_earn <> COALESCE(l.d, 0) OR u.total_money <> COALESCE(l.m, 0))`,
    [userIds ?? null],
  );
  return r.rows.length === 0;
};
