import type { Db } from '../../server/core/db/db.ts';

/** Sets a player's balances and levels directly (test setup only; the ledger gets a matching 'test' row). */
export const setBalances = async (db: Db, userId: number, v: { totalEarn?: string; totalMoney?: string; levels?: Record<string, number> }) => {
  await db.transaction(async (tx) => {
    const balances = [
      ['DOLLAR', 'total_earn', v.totalEarn],
      ['MONEY', 'total_money', v.totalMoney],
    ] as const;
    for (const [currency, column, value] of balances) {
      if (value === undefined) continue;
      await tx.query(
        `INSERT INTO ledger (user_id, currency, amount, kind, created_at_ms)
         SELECT id, $3, $2::numeric - ${column}, 'test', 0 FROM users WHERE id = $1`,
        [userId, value, currency],
      );
      await tx.query(`UPDATE users SET ${column} = $2 WHERE id = $1`, [userId, value]);
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

/** The statement that writes click groups (it alone updates users and inserts click_batches). */
export const isGroupWrite = (sql: string) => sql.includes('INSERT INTO click_batches');

/** The database as the click path sees it: every statement recorded, `before` run ahead of each (inside a transaction too). */
export const spyDb = (db: Db, before?: (sql: string) => Promise<void>) => {
  const seen: string[] = [];
  const wrap = <Q extends Pick<Db, 'query'>>(q: Q) => async (sql: string, params?: readonly unknown[]) => {
    seen.push(sql);
    await before?.(sql);
    return q.query(sql, params);
  };
  const spy: Db = { ...db, query: wrap(db) as Db['query'], transaction: (fn) => db.transaction((tx) => fn({ ...tx, query: wrap(tx) as Db['query'] })) };
  return { spy, seen };
};

/** Runs `fn` while every admin_audit insert fails (an action whose audit row cannot be written), then lets them through again. */
export const withAuditRefused = async <T>(db: Db, fn: () => Promise<T>): Promise<T> => {
  await db.exec(`
    CREATE FUNCTION refuse_audit_for_test() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit refused by the test'; END $$;
    CREATE TRIGGER refuse_audit_for_test BEFORE INSERT ON admin_audit FOR EACH ROW EXECUTE FUNCTION refuse_audit_for_test();`);
  try {
    return await fn();
  } finally {
    await db.exec('DROP TRIGGER refuse_audit_for_test ON admin_audit; DROP FUNCTION refuse_audit_for_test();');
  }
};
