-- Bounded reads (docs/scaling.md): no request counts or sums over all players.

-- The leaderboard's rank snapshot: built whole by the ranks job (server/jobs/rank-snapshot.ts) and
-- swapped in with one rename, so a page and the player's own rank always come from the same build.
-- UNLOGGED: it is derived data, rebuilt at start and every minute; it costs no WAL.
CREATE UNLOGGED TABLE leaderboard_ranks (
  rank        INTEGER PRIMARY KEY,
  user_id     BIGINT NOT NULL,
  total_money NUMERIC NOT NULL
);
CREATE UNIQUE INDEX leaderboard_ranks_user_idx ON leaderboard_ranks (user_id);

-- When the snapshot was last claimed and built, and how long it took (one row; the claim is a
-- conditional UPDATE, so N processes build it once).
CREATE TABLE leaderboard_builds (
  id            SMALLINT PRIMARY KEY CHECK (id = 1),
  claimed_at_ms BIGINT NOT NULL,
  built_at_ms   BIGINT NOT NULL,
  duration_ms   INTEGER NOT NULL,
  players       INTEGER NOT NULL,
  ledger_mark   BIGINT NOT NULL   -- the newest ledger id when the build started
);
INSERT INTO leaderboard_builds VALUES (1, 0, 0, 0, 0, 0);

-- Friends: `seq` is the referrer's nth friend (1, 2, …), so page p of the newest-first list is a
-- range of seq (a keyset, not an OFFSET). `earned` is what the referrer got from this friend:
-- the invite bonus once released plus every 5% share (§9), kept in the ledger's transaction.
ALTER TABLE referrals ADD COLUMN seq INTEGER;
ALTER TABLE referrals ADD COLUMN earned NUMERIC NOT NULL DEFAULT 0;
UPDATE referrals r SET seq = s.n
  FROM (SELECT friend_id, row_number() OVER (PARTITION BY referrer_id ORDER BY created_at_ms, friend_id)::int AS n FROM referrals) s
  WHERE s.friend_id = r.friend_id;
UPDATE referrals r SET earned = (CASE WHEN r.status = 'credited' THEN r.bonus ELSE 0 END)
  + COALESCE((SELECT sum(l.amount) FROM ledger l
              WHERE l.user_id = r.referrer_id AND l.currency = 'MONEY' AND l.kind = 'ref-share'
                AND l.reference LIKE 'friend:' || r.friend_id || ':%'), 0);
ALTER TABLE referrals ALTER COLUMN seq SET NOT NULL;
CREATE UNIQUE INDEX referrals_referrer_seq_idx ON referrals (referrer_id, seq);
DROP INDEX IF EXISTS referrals_referrer_idx;

-- Pending friends per referrer, maintained where a referral is registered and released.
ALTER TABLE users ADD COLUMN ref_pending_cnt INTEGER NOT NULL DEFAULT 0;
UPDATE users u SET ref_pending_cnt = p.n
  FROM (SELECT referrer_id, count(*)::int AS n FROM referrals WHERE status = 'pending' GROUP BY referrer_id) p
  WHERE p.referrer_id = u.id;
