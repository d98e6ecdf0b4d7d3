-- When the ranked view last held every change marked before it (docs/scaling.md "Leaderboard",
-- docs/operations.md "After a bulk import"): an apply that took the last waiting mark, or a rebuild,
-- sets it to its start. While marks wait, now minus this is how stale the ranks are at most
-- (money_ranks_lag_seconds).
ALTER TABLE rank_meta ADD COLUMN IF NOT EXISTS caught_up_at_ms BIGINT NOT NULL DEFAULT 0;
UPDATE rank_meta SET caught_up_at_ms = applied_at_ms;
