/**
 * Live ranks in a Redis sorted set (REDIS_URL; docs/scaling.md). The score is the MONEY balance in
 * cents (exact in a double up to 2^53 cents); the member is the id's complement, zero-padded, so
 * that ZREVRANGE's reverse-lexicographic order among equal scores is ascending id: the same ties as
 * the PostgreSQL snapshot. ZREVRANK is O(log n). The ranks job publishes each snapshot build in
 * full (new players appear within 60 s), then tails the ledger every second for changed balances.
 * Any Redis fault returns null and the caller reads the PostgreSQL snapshot instead.
 */
import type { LeaderboardEntry } from '../../engine/api-types.ts';
import { money } from '../../engine/money.ts';
import type { Queryable } from '../core/db/db.ts';
import { metrics, type RankFallbackReason } from '../core/metrics.ts';
import type { RedisHandle } from '../core/redis.ts';
import { entryOf, profileColumns, unrankedEntry, type LeaderboardPage } from './leaderboard.ts';
import type { UserRow } from '../players/exports.ts';

const idSpace = 10n ** 16n;
export const memberOf = (id: number): string => (idSpace - BigInt(id)).toString().padStart(17, '0');
export const idOf = (member: string): number => Number(idSpace - BigInt(member));
export const scoreOf = (totalMoney: string): number => money(totalMoney).times(100).floor().toNumber();
const moneyOfScore = (score: string): string => money(score).div(100).toFixed(2);

export const ranksKey = (r: RedisHandle): string => `${r.prefix}ranks`;
const publishChunk = 20_000;
const zaddMembers = 1_000;
const bulkCommandTimeoutMs = 10_000;

/**
 * Copies the snapshot table into a fresh sorted set and renames it over the live one (atomic).
 * Bulk work gets its own connection with a longer command timeout: a request's 500 ms budget is
 * no measure for a 1,000-member ZADD sent while this process parses the next chunk of rows.
 */
export const publishRanks = async (q: Queryable, redis: RedisHandle, players: number): Promise<void> => {
  const key = ranksKey(redis);
  const next = `${key}:next`;
  const bulk = redis.client.duplicate({ commandTimeout: bulkCommandTimeoutMs, enableOfflineQueue: true });
  bulk.on('error', () => {});
  try {
    await bulk.del(next);
    for (let from = 0; from < players; from += publishChunk) {
      // Score and member computed by PostgreSQL (the same as scoreOf and memberOf): no per-row decimal work here.
      const r = await q.query<{ s: string; m: string }>(
        `SELECT floor(total_money * 100)::text AS s, lpad((10000000000000000 - user_id)::text, 17, '0') AS m
         FROM leaderboard_ranks WHERE rank > $1 AND rank <= $2`,
        [from, from + publishChunk],
      );
      for (let i = 0; i < r.rows.length; i += zaddMembers) {
        const args: string[] = [];
        for (const row of r.rows.slice(i, i + zaddMembers)) args.push(row.s, row.m);
        await bulk.zadd(next, ...args);
      }
    }
    if (players === 0) await bulk.del(key);
    else await bulk.rename(next, key);
  } finally {
    bulk.disconnect();
  }
};

/** Where the ledger tail has got to: `prev` is re-read once more, for transactions that committed late. */
export interface LedgerCursor {
  prev: number;
  seen: number;
}

/** Re-scores the players whose MONEY changed since the cursor (bounded by activity, not players). */
export const syncChangedRanks = async (q: Queryable, redis: RedisHandle, cursor: LedgerCursor): Promise<number> => {
  const top = await q.query<{ m: number | null }>('SELECT max(id) AS m FROM ledger');
  const seen = Number(top.rows[0]?.m ?? 0);
  const r = await q.query<{ id: number; total_money: string }>(
    `SELECT id, total_money FROM users
     WHERE id IN (SELECT user_id FROM ledger WHERE id > $1 AND id <= $2 AND currency = 'MONEY')`,
    [cursor.prev, seen],
  );
  const args: (string | number)[] = [];
  for (const row of r.rows) args.push(scoreOf(row.total_money), memberOf(row.id));
  // XX: only players already published; a new player joins with the next full build.
  if (args.length > 0) await redis.client.zadd(ranksKey(redis), 'XX', ...args);
  cursor.prev = cursor.seen;
  cursor.seen = seen;
  return r.rows.length;
};

type ProfileRow = Parameters<typeof entryOf>[0];

/** The page from the sorted set; null when Redis is down, failing, or not published yet. */
export const leaderboardFromRedis = async (
  q: Queryable,
  redis: RedisHandle,
  userId: number,
  page: number,
  pageSize: number,
): Promise<LeaderboardPage | null> => {
  // Each fall-back to the snapshot is counted by its reason (docs/operations.md, MoneyRedisRankFallbacks).
  const fallBack = (reason: RankFallbackReason): null => {
    metrics.redis.rankFallbacks.inc({ reason });
    return null;
  };
  if (!redis.ready()) return fallBack('unavailable');
  const key = ranksKey(redis);
  const offset = (page - 1) * pageSize;
  let res: [Error | null, unknown][] | null;
  try {
    res = await redis.client
      .multi()
      .zrevrank(key, memberOf(userId))
      .zscore(key, memberOf(userId))
      .zrevrange(key, offset, offset + pageSize - 1, 'WITHSCORES')
      .zcard(key)
      .exec();
  } catch {
    return fallBack('error');
  }
  if (res === null || res.some(([err]) => err !== null)) return fallBack('error');
  const [ownRank, ownScore, range, total] = res.map(([, v]) => v) as [number | null, string | null, string[], number];
  if (total === 0) return fallBack('unpublished');
  const ranked: { id: number; rank: number; money: string }[] = [];
  for (let i = 0; i < range.length; i += 2) ranked.push({ id: idOf(range[i]!), rank: offset + i / 2 + 1, money: moneyOfScore(range[i + 1]!) });
  const ids = [userId, ...ranked.map((e) => e.id)];
  const rows = await q.query<ProfileRow>(`SELECT ${profileColumns} FROM users u WHERE u.id = ANY($1::bigint[])`, [ids]);
  const byId = new Map(rows.rows.map((u) => [Number(u.id), u]));
  const me = byId.get(userId) as UserRow | undefined;
  if (me === undefined) return fallBack('unknown_player');
  const first: LeaderboardEntry = ownRank !== null && ownScore !== null ? entryOf(me, ownRank + 1, moneyOfScore(ownScore)) : unrankedEntry(me, total);
  const items = ranked.flatMap((e) => {
    const u = byId.get(e.id);
    return u === undefined ? [] : [entryOf(u, e.rank, e.money)];
  });
  return { items: [first, ...items], page, pageSize, total };
};
