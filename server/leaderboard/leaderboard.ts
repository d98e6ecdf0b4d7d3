/**
 * The leaderboard (§2, §7): players by their MONEY balance, ties by id, 10 a page, the player's own
 * entry first with their rank. Ranks come from the ranked view, never from counting players per
 * request (docs/scaling.md): `rank_entries` and `rank_blocks` in PostgreSQL/PGlite, kept by the
 * ranks job from the balance changes (server/leaderboard/rank-view.ts), or the Redis sorted set
 * that mirrors it when REDIS_URL is set (server/leaderboard/redis-ranks.ts). The page, the own rank
 * and the total come from one version of the view, so they always agree.
 */
import type { LeaderboardEntry, Page } from '../../engine/wire/api-types.ts';
import { toWire } from '../../engine/rules/money.ts';
import type { Queryable } from '../core/db/db.ts';
import { loadUser, type UserRow } from '../players/exports.ts';

type ProfileRow = Pick<UserRow, 'id' | 'tele_username' | 'tele_avatar' | 'tw_username' | 'total_earn' | 'total_money' | 'total_ref'>;

/** The users columns an entry shows besides its rank. */
export const profileColumns = 'u.id, u.tele_username, u.tele_avatar, u.tw_username, u.total_earn, u.total_money, u.total_ref';

/** One entry: `rankedMoney` is the balance the rank was computed from (the view's), so the order on the page is the order shown. */
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
 * A player who joined after the ranks job's last apply is not ranked yet: they are shown just
 * below the ranked players, at `total + 1`, until the view holds them (about a second; after a bulk
 * import, until the catch-up ends: docs/scaling.md "A bulk import").
 */
export const unrankedEntry = (u: ProfileRow, total: number): LeaderboardEntry => entryOf(u, total + 1, u.total_money);

/**
 * The answer: the own entry first, then the page. An unranked player's own rank, `total + 1`, falls
 * on the page after the ranked players' last entry; that page lists them there too, so the own
 * rank always agrees with the page it is on (docs/scaling.md "Consistency"). Other players' pages
 * do not list them: they are not in the view yet.
 */
export const pageWithOwn = (own: LeaderboardEntry, ranked: boolean, items: LeaderboardEntry[], page: number, pageSize: number, total: number): LeaderboardPage => {
  const offset = (page - 1) * pageSize;
  const onPage = !ranked && offset <= total && total < offset + pageSize;
  return { items: [own, ...items, ...(onPage ? [own] : [])], page, pageSize, total };
};

export type LeaderboardPage = Page<LeaderboardEntry>;

/** The statement of leaderboardFromView ($1 the player, $2 the offset, $3 the page size); exported for the bound test. */
export const leaderboardViewSql = `WITH meta AS (SELECT total::bigint AS total FROM rank_meta WHERE id = 1),
  me AS (SELECT total_money, neg_id FROM rank_entries WHERE user_id = $1),
  mine AS (
    SELECT me.total_money,
           b.above + 1 + (SELECT count(*) FROM (
                            SELECT e.total_money, e.neg_id FROM rank_entries e WHERE (e.total_money, e.neg_id) > (me.total_money, me.neg_id)
                            ORDER BY e.total_money, e.neg_id LIMIT b.n) s
                          WHERE (s.total_money, s.neg_id) < (b.hi_money, b.hi_neg)) AS rank
    FROM me CROSS JOIN LATERAL (
      SELECT above, hi_money, hi_neg, n FROM rank_blocks WHERE (lo_money, lo_neg) <= (me.total_money, me.neg_id)
      ORDER BY lo_money DESC, lo_neg DESC LIMIT 1) b
  ),
  pb AS (SELECT above, hi_money, hi_neg FROM rank_blocks WHERE above <= $2 AND above + n > $2 ORDER BY above DESC LIMIT 1),
  pg AS (
    SELECT -p.neg_id AS user_id, p.total_money, $2::bigint + row_number() OVER (ORDER BY p.total_money DESC, p.neg_id DESC) AS rank
    FROM pb CROSS JOIN LATERAL (
      SELECT total_money, neg_id FROM rank_entries e WHERE (e.total_money, e.neg_id) < (pb.hi_money, pb.hi_neg)
      ORDER BY e.total_money DESC, e.neg_id DESC OFFSET $2 - pb.above LIMIT $3) p
  ),
  x AS (
    SELECT 0 AS ord, rank, total_money, $1::bigint AS user_id FROM mine
    UNION ALL
    SELECT 1 AS ord, rank, total_money, user_id FROM pg
  )
  SELECT meta.total, x.ord, x.rank, x.total_money AS ranked_money, ${profileColumns}
  FROM meta LEFT JOIN (x JOIN users u ON u.id = x.user_id) ON true
  ORDER BY x.ord, x.rank`;

/**
 * The page from the ranked view (server/leaderboard/rank-view.ts), in one statement, so one
 * committed version: the own rank is its block's `above` plus the entries ahead of it inside the
 * block; the page starts in the block holding its first rank, at an OFFSET inside that block.
 * Both are bounded by the block size (at most 2 × 2,048 index entries), never by the players.
 * The count reads at most the block's n entries after the player's (LIMIT n): a B-tree scan stops
 * on a row comparison's first column only, so a bound `< (hi_money, hi_neg)` alone would read on
 * through every tied balance past the block (the 2.5M players at 0 MONEY of a 10M table).
 */
export const leaderboardFromView = async (q: Queryable, userId: number, page: number, pageSize: number): Promise<LeaderboardPage> => {
  const offset = (page - 1) * pageSize;
  const r = await q.query<ProfileRow & { total: number; ord: number | null; rank: number | null; ranked_money: string | null }>(
    leaderboardViewSql,
    [userId, offset, pageSize],
    // Planned once per connection (its planning cost more than its run); the OFFSET skips only
    // index entries (user_id is −neg_id), so it reads no row it does not show.
    { name: 'leaderboard-view' },
  );
  const total = Number(r.rows[0]?.total ?? 0);
  const ranked = r.rows.filter((row) => row.rank !== null);
  const own = ranked.find((row) => row.ord === 0);
  const items = ranked.filter((row) => row.ord === 1).map((row) => entryOf(row, Number(row.rank), row.ranked_money!));
  const first = own !== undefined ? entryOf(own, Number(own.rank), own.ranked_money!) : unrankedEntry(await loadUser(q, userId), total);
  return pageWithOwn(first, own !== undefined, items, page, pageSize, total);
};
