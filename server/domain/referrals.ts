import type { FriendEntry, FriendWait, LeaderboardEntry } from '../../engine/api-types.ts';
import { economy } from '../../engine/economy.ts';
import { money, toWire } from '../../engine/money.ts';
import { friendLimit } from '../../engine/prices.ts';
import { inviteBonus } from '../../engine/rewards.ts';
import type { Queryable } from '../db/db.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { settleInviteBonus } from './ledger.ts';
import { loadUser, type UserRow } from './users.ts';

/**
 * /referral: the player names their referrer once. Refused: unknown code, self-referral, a cycle
 * (the referrer is the player's own descendant), and a referrer at their friend limit. The
 * invite bonus stays pending until the friend's totalEarn reaches $100 and the friend is a member
 * of the channel (ledger.settleInviteBonus, channel-rule.ts).
 */
export const registerReferral = async (tx: Queryable, userId: number, refcode: string, nowMs: number): Promise<UserRow> => {
  const found = await tx.query<{ id: number }>('SELECT id FROM users WHERE refcode = $1', [refcode]);
  const referrerId = found.rows[0]?.id;
  if (referrerId === undefined) throw notFound('Referral code not found', 'refcode');
  if (referrerId === userId) throw badRequest('You cannot use your own referral code', 'refcode');
  // Both rows locked in id order: a concurrent registration waits instead of double counting.
  await tx.query('SELECT id FROM users WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE', [[userId, referrerId]]);
  const me = await loadUser(tx, userId);
  if (me.referred_by !== null) throw conflict('You already have a referrer', 'refcode');
  const cycle = await tx.query(
    `WITH RECURSIVE chain(id, depth) AS (
       SELECT referred_by, 1 FROM users WHERE id = $1
       UNION ALL SELECT u.referred_by, c.depth + 1 FROM users u JOIN chain c ON u.id = c.id WHERE c.depth < 10000
     ) SELECT 1 FROM chain WHERE id = $2 LIMIT 1`,
    [referrerId, userId],
  );
  if (cycle.rows.length > 0) throw badRequest('This referral would make a cycle', 'refcode');
  const referrer = await loadUser(tx, referrerId);
  if (referrer.invite_cnt >= friendLimit(referrer.ref_level))
    throw conflict('This player has reached their friend limit', 'refcode');
  await tx.query('UPDATE users SET referred_by = $2 WHERE id = $1 AND referred_by IS NULL', [userId, referrerId]);
  await tx.query('UPDATE users SET invite_cnt = invite_cnt + 1 WHERE id = $1', [referrerId]);
  await tx.query('INSERT INTO referrals (friend_id, referrer_id, bonus, created_at_ms) VALUES ($1, $2, $3, $4)', [
    userId,
    referrerId,
    String(inviteBonus(me.is_premium)),
    nowMs,
  ]);
  // A player who already has $100 releases the bonus at once.
  await settleInviteBonus(tx, userId, nowMs);
  return loadUser(tx, userId);
};

/** §9: what a pending invite bonus still waits for. */
const waitsOf = (f: { status: string; total_earn: string; is_member: boolean }): FriendWait[] => {
  if (f.status !== 'pending') return [];
  const waits: FriendWait[] = [];
  if (money(f.total_earn).lt(economy.pendingFriendThresholdDollars)) waits.push('clicks');
  if (!f.is_member) waits.push('channel');
  return waits;
};

/** /get-ref-users: the player's friends, newest first, a page at a time, and how many are pending. */
export const listFriends = async (q: Queryable, userId: number, page: number, pageSize: number) => {
  const r = await q.query<{ tele_username: string; total_money: string; total_money_ref: string; total_earn: string; status: string; is_member: boolean }>(
    `SELECT u.tele_username, u.total_money, u.total_money_ref, u.total_earn, r.status, r.is_member FROM referrals r JOIN users u ON u.id = r.friend_id
     WHERE r.referrer_id = $1 ORDER BY r.created_at_ms DESC, r.friend_id DESC LIMIT $2 OFFSET $3`,
    [userId, pageSize, (page - 1) * pageSize],
  );
  const counts = await q.query<{ total: number; pending: number }>(
    `SELECT count(*)::int AS total, count(*) FILTER (WHERE r.status = 'pending')::int AS pending FROM referrals r WHERE r.referrer_id = $1`,
    [userId],
  );
  const items: FriendEntry[] = r.rows.map((f) => ({
    teleUsername: f.tele_username,
    totalMoney: toWire(f.total_money),
    totalMoneyRef: toWire(f.total_money_ref),
    totalEarn: toWire(f.total_earn),
    waitingFor: waitsOf(f),
  }));
  return { items, page, pageSize, total: counts.rows[0]?.total ?? 0, pending: counts.rows[0]?.pending ?? 0 };
};

type RankRow = Pick<UserRow, 'id' | 'tele_username' | 'tele_avatar' | 'tw_username' | 'total_earn' | 'total_money' | 'total_ref'> & { rank: number };

const entryOf = (r: RankRow): LeaderboardEntry => ({
  id: String(r.id),
  rank: r.rank,
  teleUsername: r.tele_username,
  teleAvatar: r.tele_avatar,
  twUsername: r.tw_username,
  reward: toWire(r.total_money),
  totalEarn: toWire(r.total_earn),
  totalMoney: toWire(r.total_money),
  totalRef: toWire(r.total_ref),
});

/**
 * /leaderboard: players by their MONEY balance (ties by id), a page at a time, with the player's own entry
 * put first and carrying their rank (§7).
 */
export const leaderboard = async (q: Queryable, userId: number, page: number, pageSize: number) => {
  const cols = 'id, tele_username, tele_avatar, tw_username, total_earn, total_money, total_ref';
  const me = await q.query<RankRow>(
    `SELECT ${cols}, (SELECT count(*)::int + 1 FROM users o WHERE o.total_money > u.total_money OR (o.total_money = u.total_money AND o.id < u.id)) AS rank
     FROM users u WHERE id = $1`,
    [userId],
  );
  const offset = (page - 1) * pageSize;
  const rows = await q.query<RankRow>(
    `SELECT *, ($2 + row_number() OVER (ORDER BY total_money DESC, id ASC))::int AS rank
     FROM (SELECT ${cols} FROM users ORDER BY total_money DESC, id ASC LIMIT $1 OFFSET $2) AS p
     ORDER BY total_money DESC, id ASC`,
    [pageSize, offset],
  );
  const total = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
  const own = me.rows[0];
  return {
    items: [...(own !== undefined ? [entryOf(own)] : []), ...rows.rows.map(entryOf)],
    page,
    pageSize,
    total: total.rows[0]?.n ?? 0,
  };
};

export const maxPageSize = economy.pageSize * 5;
