-- The leaderboard ranks players by their MONEY balance (what the mini-app shows as the score).
-- total_money changes only on claims and purchases, never on a click, so this index keeps click
-- updates heap-only (see 0002).
CREATE INDEX IF NOT EXISTS users_money_rank_idx ON users (total_money DESC, id ASC);
