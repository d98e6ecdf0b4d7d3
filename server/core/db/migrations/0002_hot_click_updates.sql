-- POST /click rewrites total_earn, total_click and energy of many rows per second. An index on
-- total_earn makes every such UPDATE touch every index of the table; without it PostgreSQL can do
-- heap-only (HOT) updates, which the free space left by fillfactor 80 makes likely. The
-- leaderboard sorts instead (a top-N sort of one table scan); beyond one primary, docs/scaling.md's
-- Redis sorted set holds the ranks.
DROP INDEX IF EXISTS users_rank_idx;
ALTER TABLE users SET (fillfactor = 80);
