/**
 * The leaderboard (§2, §7): players by their MONEY balance, ties by id, 10 a page, the player's own
 * entry first with their rank. Ranks come from a snapshot, never from counting players per request
 * (docs/scaling.md): the `leaderboard_ranks` table in PostgreSQL/PGlite, rebuilt by the ranks job
 * at most 60 s apart, or the Redis sorted set when REDIS_URL is set (server/leaderboard/redis-ranks.ts).
 * The page, the own rank and the total come from one build, so they always agree.
 */
import type { LeaderboardEntry, Page } from '../../engine/api-types.ts';
import { toWire } from '../../engine/money.ts';
import type { Queryable } from '../core/db/db.ts';
import { loadUser, type UserRow } from '../players/exports.ts';

type ProfileRow = Pick<UserRow, 'id' | 'tele_username' | 'tele_avatar' | 'tw_username' | 'total_earn' | 'total_money' | 'total_ref'>;

/** The users columns an entry shows besides its rank. */
export const profileColumns = 'u.id, u.tele_username, u.tele_avatar, u.tw_username, u.total_earn, u.total_money, u.total_ref';

/** One entry: `rankedMoney` is the balance the rank was computed from (the snapshot's), so the order on the page is the order shown. */
export const entryOf = (u: ProfileRow, rank: number, rankedMoney: string): LeaderboardEntry => ({
  id: String(u.id),
  rank,
  teleUsername: u.tele_username,
  teleAvatar: u.tele_avatar,
  twUsername: u.tw_username,
  reward: toWire(rankedMoney),
  totalEarn: toWire(u.total_earn),
  totalMoney: toWire(rankedMoney),
  totalRef: toWire(u.total_ref),
});

/**
 * A player who joined (or was first seen) after the last build is not ranked yet: they are shown
 * just below the ranked players until the next build (at most 60 s).
 */
export const unrankedEntry = (u: ProfileRow, total: number): LeaderboardEntry => entryOf(u, total + 1, u.total_money);

export type LeaderboardPage = Page<LeaderboardEntry>;

/** The page from the PostgreSQL snapshot: one statement, so a concurrent swap cannot split it. */
export const leaderboardFromSnapshot = async (q: Queryable, userId: number, page: number, pageSize: number): Promise<LeaderboardPage> => {
  const offset = (page - 1) * pageSize;
  const r = await q.query<ProfileRow & { total: number; ord: number | null; rank: number | null; ranked_money: string | null }>(
    `WITH n AS (SELECT COALESCE(max(rank), 0)::int AS total FROM leaderboard_ranks),
     x AS (
       SELECT 0 AS ord, rank, total_money, user_id FROM leaderboard_ranks WHERE user_id = $1
       UNION ALL
       SELECT 1 AS ord, rank, total_money, user_id FROM leaderboard_ranks WHERE rank > $2 AND rank <= $2 + $3
     )
     SELECT n.total, x.ord, x.rank, x.total_money AS ranked_money, ${profileColumns}
     FROM n LEFT JOIN (x JOIN users u ON u.id = x.user_id) ON true
     ORDER BY x.ord, x.rank`,
    [userId, offset, pageSize],
  );
  const total = r.rows[0]?.total ?? 0;
  const ranked = r.rows.filter((row) => row.rank !== null);
  const own = ranked.find((row) => row.ord === 0);
  const items = ranked.filter((row) => row.ord === 1).map((row) => entryOf(row, row.rank!, row.ranked_money!));
  const first = own !== undefined ? entryOf(own, own.rank!, own.ranked_money!) : unrankedEntry(await loadUser(q, userId), total);
  return { items: [first, ...items], page, pageSize, total };
};
