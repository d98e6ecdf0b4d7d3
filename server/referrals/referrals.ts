import type { FriendEntry, FriendsPage, FriendWait } from '../../engine/wire/api-types.ts';
import { economy } from '../../engine/rules/economy.ts';
import { money, toWire } from '../../engine/rules/money.ts';
import { friendLimit } from '../../engine/rules/prices.ts';
import { inviteBonus } from '../../engine/rules/rewards.ts';
import type { Db, Queryable } from '../core/db/db.ts';
import { transaction } from '../core/db/transaction.ts';
import { refuse } from '../core/errors.ts';
import { settleInviteBonus } from '../players/exports.ts';
import { loadUser, type UserRow } from '../players/exports.ts';

/**
 * /referral: the player names their referrer once. Refused: unknown code, self-referral, a cycle
 * (the referrer is the player's own descendant), and a referrer at their friend limit. The
 * invite bonus stays pending until the friend's totalEarn reaches $100 and the friend is a member
 * of the channel (ledger.settleInviteBonus, channel-rule.ts).
 */
export const registerReferral = (db: Db, userId: number, refcode: string, nowMs: number): Promise<UserRow> =>
  transaction(db, async (tx) => {
    const found = await tx.query<{ id: number }>('SELECT id FROM users WHERE refcode = $1', [refcode]);
    const referrerId = found.rows[0]?.id;
    if (referrerId === undefined) throw refuse('refcodeNotFound', { field: 'refcode' });
    if (referrerId === userId) throw refuse('ownRefcode', { field: 'refcode' });
    // Both rows locked in id order: a concurrent registration waits instead of double counting.
    await tx.query('SELECT id FROM users WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE', [[userId, referrerId]]);
    const me = await loadUser(tx, userId);
    if (me.referred_by !== null) throw refuse('referrerAlreadySet', { field: 'refcode' });
    const cycle = await tx.query(
      `WITH RECURSIVE chain(id, depth) AS (
         SELECT referred_by, 1 FROM users WHERE id = $1
         UNION ALL SELECT u.referred_by, c.depth + 1 FROM users u JOIN chain c ON u.id = c.id WHERE c.depth < 10000
       ) SELECT 1 FROM chain WHERE id = $2 LIMIT 1`,
      [referrerId, userId],
    );
    if (cycle.rows.length > 0) throw refuse('referralCycle', { field: 'refcode' });
    const referrer = await loadUser(tx, referrerId);
    if (referrer.invite_cnt >= friendLimit(referrer.ref_level))
      throw refuse('friendLimitReached', { field: 'refcode' });
    await tx.query('UPDATE users SET referred_by = $2 WHERE id = $1 AND referred_by IS NULL', [userId, referrerId]);
    await tx.query('UPDATE users SET invite_cnt = invite_cnt + 1, ref_pending_cnt = ref_pending_cnt + 1 WHERE id = $1', [referrerId]);
    // The referrer's row is locked above, so the next seq cannot be taken twice.
    await tx.query(
      `INSERT INTO referrals (friend_id, referrer_id, bonus, created_at_ms, seq)
       VALUES ($1, $2, $3, $4, (SELECT COALESCE(max(seq), 0) + 1 FROM referrals WHERE referrer_id = $2))`,
      [userId, referrerId, String(inviteBonus(me.is_premium)), nowMs],
    );
    // A player who already has $100 releases the bonus at once.
    await settleInviteBonus(tx, userId, nowMs);
    return loadUser(tx, userId);
  });

/** §9: what a pending invite bonus still waits for. */
const waitsOf = (f: { status: string; total_earn: string; is_member: boolean }): FriendWait[] => {
  if (f.status !== 'pending') return [];
  const waits: FriendWait[] = [];
  if (money(f.total_earn).lt(economy.pendingFriendThresholdDollars)) waits.push('clicks');
  if (!f.is_member) waits.push('channel');
  return waits;
};

/**
 * /get-ref-users: the player's friends, newest first, a page at a time, how many are pending, and
 * Total Bonus (the players row's totalRef + totalMoneyRef), so Invite shows both from one answer.
 */
export const listFriends = async (q: Queryable, userId: number, page: number, pageSize: number): Promise<FriendsPage> => {
  // seq numbers a referrer's friends 1, 2, …: page p newest-first is a seq range on (referrer_id, seq).
  const counts = await q.query<{ total: number; pending: number; total_bonus: string }>(
    `SELECT COALESCE((SELECT max(seq) FROM referrals WHERE referrer_id = $1), 0)::int AS total, ref_pending_cnt AS pending,
            total_ref + total_money_ref AS total_bonus
     FROM users WHERE id = $1`,
    [userId],
  );
  const total = counts.rows[0]?.total ?? 0;
  const newest = total - (page - 1) * pageSize;
  const r = await q.query<{ tele_username: string; total_money: string; total_money_ref: string; total_earn: string; earned: string; status: string; is_member: boolean }>(
    `SELECT u.tele_username, u.total_money, u.total_money_ref, u.total_earn, r.earned, r.status, r.is_member FROM referrals r JOIN users u ON u.id = r.friend_id
     WHERE r.referrer_id = $1 AND r.seq <= $2 AND r.seq > $2 - $3 ORDER BY r.seq DESC`,
    [userId, newest, pageSize],
  );
  const items: FriendEntry[] = r.rows.map((f) => ({
    teleUsername: f.tele_username,
    totalMoney: toWire(f.total_money),
    totalMoneyRef: toWire(f.total_money_ref),
    totalEarn: toWire(f.total_earn),
    waitingFor: waitsOf(f),
    earned: toWire(f.earned),
  }));
  return { items, page, pageSize, total, pending: counts.rows[0]?.pending ?? 0, totalBonus: toWire(counts.rows[0]?.total_bonus ?? '0') };
};

export const maxPageSize = economy.pageSize * 5;
