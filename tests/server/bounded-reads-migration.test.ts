import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/background/settings.ts';
import { openDb } from '../../server/core/db/db.ts';
import { listMigrations, migrate } from '../../server/core/db/migrate.ts';

describe('migration 0200 on a database with referrals', () => {
  it('numbers each referrer’s friends in join order, and backfills what each friend earned and who is pending', async () => {
    const db = await openDb(loadConfig({ NODE_ENV: 'test' }), { inMemory: true, migrate: false });
    const all = listMigrations();
    await migrate(db, all.filter((m) => m.version < 200));
    const user = (id: number) =>
      db.query('INSERT INTO users (id, refcode, energy_at_ms, tap_clock_ms, last_claimed_ms, created_at_ms) VALUES ($1, $2, 0, 0, 0, 0)', [id, `c${id}`.padEnd(6, '0')]);
    for (const id of [1, 2, 3, 4]) await user(id);
    await db.query(
      `INSERT INTO referrals (friend_id, referrer_id, bonus, status, created_at_ms) VALUES
       (3, 1, 3, 'credited', 20), (2, 1, 49, 'pending', 10), (4, 2, 3, 'pending', 5)`,
    );
    await db.query(
      `INSERT INTO ledger (user_id, currency, amount, kind, reference, created_at_ms) VALUES
       (1, 'MONEY', 3, 'invite-bonus', 'friend:3', 30), (1, 'MONEY', 0.5, 'ref-share', 'friend:3:task', 31),
       (1, 'MONEY', 1.25, 'ref-share', 'friend:2:easter', 32), (1, 'MONEY', 9, 'ref-share', 'friend:30:task', 33)`,
    );
    await migrate(db, all);
    const r = await db.query<{ friend_id: number; seq: number; earned: string }>('SELECT friend_id, seq, earned FROM referrals ORDER BY friend_id');
    expect(r.rows.map((x) => [Number(x.friend_id), x.seq, Number(x.earned)])).toEqual([
      [2, 1, 1.25],
      [3, 2, 3.5],
      [4, 1, 0],
    ]);
    const p = await db.query<{ id: number; ref_pending_cnt: number }>('SELECT id, ref_pending_cnt FROM users ORDER BY id');
    expect(p.rows.map((x) => x.ref_pending_cnt)).toEqual([1, 1, 0, 0]);
    await db.close();
  });
});
