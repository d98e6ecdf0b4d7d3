/**
 * Ranks in a Redis sorted set (REDIS_URL; docs/scaling.md), a mirror of the ranked view
 * (server/leaderboard/rank-view.ts). The score is the MONEY balance in cents (exact in a double up
 * to 2^53 cents); the member is the id's complement, zero-padded, so that ZREVRANGE's
 * reverse-lexicographic order among equal scores is ascending id: the same ties as the view.
 * ZREVRANK is O(log n). `ranks:version` is the view's version the set holds: each tick sends only
 * the entries changed since that version (the view's `rank_entries.version` index), as one
 * compare-and-set script, so the set moves from one version of the view to a later one and a
 * mirror that missed a tick catches up on the next. The whole view is copied only when the set is
 * missing (a new Redis, a flush) or too far behind. Any Redis fault on a read returns null and the
 * caller reads the PostgreSQL view instead.
 */
import type { LeaderboardEntry } from '../../engine/wire/api-types.ts';
import { money } from '../../engine/rules/money.ts';
import type { Db, Queryable } from '../core/db/db.ts';
import type { RedisHandle } from '../core/redis.ts';
import { transaction } from '../core/db/transaction.ts';
import { entryOf, pageWithOwn, profileColumns, unrankedEntry, type LeaderboardPage } from './leaderboard.ts';
import { leaderboardMetrics, type RankFallbackReason } from './metrics.ts';
import type { UserRow } from '../players/exports.ts';

const idSpace = 10n ** 16n;
export const memberOf = (id: number): string => (idSpace - BigInt(id)).toString().padStart(17, '0');
export const idOf = (member: string): number => Number(idSpace - BigInt(member));
export const scoreOf = (totalMoney: string): number => money(totalMoney).times(100).floor().toNumber();
const moneyOfScore = (score: string): string => money(score).div(100).toFixed(2);

export const ranksKey = (r: RedisHandle): string => `${r.prefix}ranks`;
export const ranksVersionKey = (r: RedisHandle): string => `${r.prefix}ranks:version`;
const publishLockKey = (r: RedisHandle): string => `${r.prefix}ranks:publishing`;
// Score and member computed by PostgreSQL (the same as scoreOf and memberOf): no per-row decimal work here.
const scoreMemberSql = "floor(total_money * 100)::text AS s, lpad((10000000000000000 - user_id)::text, 17, '0') AS m";
const publishChunk = 20_000;
const zaddMembers = 1_000;
/** Past this many changed entries a full copy is sent instead of the changes. */
export const maxCatchUp = 200_000;
const bulkCommandTimeoutMs = 10_000;
const publishLockMs = 10 * 60_000;

/**
 * Sets the changed members and the new version only if the set still holds `from`
 * (KEYS: set, version; ARGV: from, to, score, member, …); -1 when the set itself is gone (deleted
 * or evicted while its version stayed): only a whole copy can restore it.
 */
const catchUpScript = `
if (redis.call('GET', KEYS[2]) or '') ~= ARGV[1] then return 0 end
if redis.call('EXISTS', KEYS[1]) == 0 and ARGV[3] ~= 'empty' then return -1 end
local i = 4
while i <= #ARGV do
  local j = math.min(i + 999, #ARGV)
  redis.call('ZADD', KEYS[1], unpack(ARGV, i, j))
  i = j + 1
end
redis.call('SET', KEYS[2], ARGV[2])
return 1`;

/** Swaps a complete copy in (KEYS: set, version, copy; ARGV: version, empty). */
const swapScript = `
if ARGV[2] == '1' then redis.call('DEL', KEYS[1], KEYS[3]) else redis.call('RENAME', KEYS[3], KEYS[1]) end
redis.call('SET', KEYS[2], ARGV[1])
return 1`;

/** A connection for bulk work, with a longer command timeout than a request's 500 ms. */
const bulkClient = (redis: RedisHandle) => {
  const bulk = redis.client.duplicate({ commandTimeout: bulkCommandTimeoutMs, enableOfflineQueue: true });
  bulk.on('error', () => {});
  return bulk;
};

/**
 * Copies the whole view into a fresh set and swaps it in with its version (one process at a time:
 * a lock key with a lease). Reads the view in one REPEATABLE READ transaction, so the copy is one
 * version; changes made meanwhile are newer than it and are sent by the next catch-up.
 * False when another process is copying.
 */
export const publishRanks = async (db: Db, redis: RedisHandle): Promise<boolean> => {
  const token = `${process.pid}:${Math.random().toString(36).slice(2)}`;
  const bulk = bulkClient(redis);
  try {
    if ((await bulk.set(publishLockKey(redis), token, 'PX', publishLockMs, 'NX')) !== 'OK') return false;
    const copy = `${ranksKey(redis)}:copy:${token}`;
    const { version, players } = await transaction(db, async (tx) => {
      await tx.exec('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      const meta = await tx.query<{ version: number }>('SELECT version FROM rank_meta WHERE id = 1');
      let after = -1;
      let players = 0;
      for (;;) {
        const r = await tx.query<{ id: number; s: string; m: string }>(
          `SELECT user_id AS id, ${scoreMemberSql} FROM rank_entries WHERE user_id > $1 ORDER BY user_id LIMIT $2`,
          [after, publishChunk],
        );
        for (let i = 0; i < r.rows.length; i += zaddMembers) {
          const args: string[] = [];
          for (const row of r.rows.slice(i, i + zaddMembers)) args.push(row.s, row.m);
          await bulk.zadd(copy, ...args);
        }
        players += r.rows.length;
        if (r.rows.length < publishChunk) break;
        after = Number(r.rows.at(-1)!.id);
      }
      return { version: Number(meta.rows[0]!.version), players };
    });
    await bulk.eval(swapScript, 3, ranksKey(redis), ranksVersionKey(redis), copy, String(version), players === 0 ? '1' : '0');
    return true;
  } finally {
    // Give the lock back if it is still ours.
    await bulk.eval("if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0", 1, publishLockKey(redis), token).catch(() => {});
    bulk.disconnect();
  }
};

export interface RedisSync {
  /** What was done: nothing (the set holds the view's version), a catch-up, or a full copy. */
  kind: 'current' | 'catch-up' | 'publish' | 'busy';
  members: number;
  version: number;
}

/**
 * Brings the set to the view's current version: the entries changed since the version it holds,
 * or the whole view when it holds none (or is more than `maxCatchUp` entries behind).
 */
export const syncRedisRanks = async (db: Db, redis: RedisHandle): Promise<RedisSync> => {
  const held = await redis.client.get(ranksVersionKey(redis));
  const meta = await db.query<{ version: number }>('SELECT version FROM rank_meta WHERE id = 1');
  const current = Number(meta.rows[0]!.version);
  if (held !== null && Number(held) === current) return { kind: 'current', members: 0, version: current };
  if (held !== null && Number(held) < current) {
    // The changed entries and the version they lead to, read in one statement (one snapshot).
    // held_empty: no entry is as old as `held`, so every entry is among the changed and they make a whole set.
    const r = await db.query<{ v: number; held_empty: boolean; s: string | null; m: string | null }>(
      `SELECT meta.version AS v, NOT EXISTS (SELECT 1 FROM rank_entries WHERE version <= $1) AS held_empty, c.s, c.m
       FROM (SELECT version FROM rank_meta WHERE id = 1) meta
       LEFT JOIN (SELECT ${scoreMemberSql} FROM rank_entries WHERE version > $1 LIMIT $2) c ON true`,
      [Number(held), maxCatchUp + 1],
    );
    const changed = r.rows.filter((x) => x.m !== null);
    if (changed.length <= maxCatchUp) {
      const to = Number(r.rows[0]!.v);
      const args: string[] = [];
      for (const x of changed) args.push(x.s!, x.m!);
      const bulk = changed.length > zaddMembers ? bulkClient(redis) : redis.client;
      let ok: unknown;
      try {
        // 'empty': the view had no entries at `held`, so no set is expected (a copy of nothing deletes it).
        ok = await bulk.eval(catchUpScript, 2, ranksKey(redis), ranksVersionKey(redis), held, String(to), r.rows[0]!.held_empty ? 'empty' : 'set', ...args);
      } finally {
        if (bulk !== redis.client) bulk.disconnect();
      }
      // 0: another process moved the set meanwhile, and the next tick starts from where it left it.
      if (ok !== -1) return { kind: ok === 1 ? 'catch-up' : 'busy', members: changed.length, version: to };
    }
  }
  const done = await publishRanks(db, redis);
  return { kind: done ? 'publish' : 'busy', members: 0, version: current };
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
    leaderboardMetrics.rankFallbacks.inc({ reason });
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
  const rows = await q.query<ProfileRow>(`SELECT ${profileColumns} FROM users u WHERE u.id = ANY($1::bigint[])`, [ids], { name: 'leaderboard-profiles' });
  const byId = new Map(rows.rows.map((u) => [Number(u.id), u]));
  const me = byId.get(userId) as UserRow | undefined;
  if (me === undefined) return fallBack('unknown_player');
  const isRanked = ownRank !== null && ownScore !== null;
  const first: LeaderboardEntry = isRanked ? entryOf(me, ownRank + 1, moneyOfScore(ownScore)) : unrankedEntry(me, total);
  const items = ranked.flatMap((e) => {
    const u = byId.get(e.id);
    return u === undefined ? [] : [entryOf(u, e.rank, e.money)];
  });
  return pageWithOwn(first, isRanked, items, page, pageSize, total);
};
