-- Ten million players on one primary (docs/scaling.md, docs/storage.md "Maintained ranks and
-- counters"): the jobs that scanned every player each period now do work in proportion to what
-- changed. Ranks are maintained from marks the balance changes leave; the public stats and the
-- console's counts are counters, changed by deltas written in the transactions that change them.
-- The first build and the first counts are computed here, inside this migration's transaction,
-- while its triggers hold writers off users (so nothing is counted twice or missed): on a large
-- existing table run it in a quiet moment (about 10 s a million players).

-- ── Ranks ──────────────────────────────────────────────────────────────────────────────────────
-- The ranked view: each player's ranked MONEY balance. The leaderboard's order is (total_money,
-- neg_id) descending, neg_id = −user_id, so equal balances order by ascending id; one btree serves
-- every comparison of that key. `version` is the view's version when the entry last changed: the
-- Redis mirror sends only the entries newer than the version it holds.
CREATE TABLE rank_entries (
  user_id     BIGINT PRIMARY KEY,
  total_money NUMERIC NOT NULL,
  neg_id      BIGINT NOT NULL,
  version     BIGINT NOT NULL
) WITH (fillfactor = 90, autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02);
CREATE INDEX rank_entries_key_idx ON rank_entries (total_money, neg_id);
CREATE INDEX rank_entries_version_idx ON rank_entries (version);

-- The view cut into consecutive key ranges [lo, hi) of about rank_meta.block_size entries each:
-- `n` entries in the block and `above` entries in the blocks above it, so a rank is `above` plus a
-- count inside one block, and a page an OFFSET inside one block. The bottom block's lo is
-- −Infinity, the top block's hi +Infinity.
CREATE TABLE rank_blocks (
  lo_money NUMERIC NOT NULL,
  lo_neg   BIGINT NOT NULL,
  hi_money NUMERIC NOT NULL,
  hi_neg   BIGINT NOT NULL,
  n        BIGINT NOT NULL CHECK (n >= 0),
  above    BIGINT NOT NULL,
  PRIMARY KEY (lo_money, lo_neg)
) WITH (fillfactor = 50, autovacuum_vacuum_threshold = 200, autovacuum_vacuum_scale_factor = 0);
CREATE INDEX rank_blocks_above_idx ON rank_blocks (above);

-- One row: the view's version (+1 per applied change set or rebuild), its size, when it was last
-- changed, and the block size it keeps (blocks split above 2×, merge below ¼).
CREATE TABLE rank_meta (
  id            SMALLINT PRIMARY KEY CHECK (id = 1),
  version       BIGINT NOT NULL,
  total         BIGINT NOT NULL,
  applied_at_ms BIGINT NOT NULL,
  block_size    INTEGER NOT NULL CHECK (block_size >= 2)
);
INSERT INTO rank_meta VALUES (1, 0, 0, 0, 2048);

-- Players whose MONEY changed (or who joined) since the ranks job last applied them: one row per
-- change, written by the trigger below in the transaction that changed the balance, deleted by the
-- job in the transaction that applies them. No unique key on purpose: a mark must never be
-- skipped because an older one of the same player is about to be taken.
CREATE TABLE rank_dirty (
  user_id BIGINT NOT NULL
);

CREATE FUNCTION rank_mark() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO rank_dirty (user_id) VALUES (NEW.id);
  RETURN NULL;
END $$;
-- `UPDATE OF total_money`: a statement that does not set total_money (every click group) does not
-- even evaluate this trigger.
CREATE TRIGGER users_rank_mark_money AFTER UPDATE OF total_money ON users
  FOR EACH ROW WHEN (OLD.total_money IS DISTINCT FROM NEW.total_money) EXECUTE FUNCTION rank_mark();
CREATE TRIGGER users_rank_mark_joined AFTER INSERT ON users
  FOR EACH ROW EXECUTE FUNCTION rank_mark();

-- The ranked view from scratch, from users (at install, after a restore, and in tests to check the
-- maintained view): one transaction, so readers keep the previous view until it commits. Marks are
-- left in place: applying one again is harmless (an entry is set to the balance read then).
CREATE FUNCTION rank_rebuild(size INTEGER, now_ms BIGINT) RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
  players BIGINT;
  v BIGINT;
BEGIN
  UPDATE rank_meta SET version = version + 1, applied_at_ms = now_ms, block_size = size WHERE id = 1 RETURNING version INTO v;
  DELETE FROM rank_entries;
  DELETE FROM rank_blocks;
  INSERT INTO rank_entries (user_id, total_money, neg_id, version) SELECT id, total_money, -id, v FROM users;
  GET DIAGNOSTICS players = ROW_COUNT;
  -- Block k (0 at the top) holds the entries k·size … (k+1)·size − 1 in leaderboard order; its lo is
  -- its last entry's key (the bottom block: −Infinity), its hi the lo of the block above (+Infinity).
  INSERT INTO rank_blocks (lo_money, lo_neg, hi_money, hi_neg, n, above)
  SELECT CASE WHEN k = last THEN '-Infinity'::numeric ELSE m END, CASE WHEN k = last THEN 0 ELSE g END,
         COALESCE(lag(m) OVER w, 'Infinity'::numeric), COALESCE(lag(g) OVER w, 0),
         LEAST(size, players - k * size), k * size
  FROM (
    SELECT i / size AS k, total_money AS m, neg_id AS g, (players - 1) / size AS last
    FROM (SELECT total_money, neg_id, row_number() OVER (ORDER BY total_money DESC, neg_id DESC) - 1 AS i FROM rank_entries) r
    WHERE i % size = size - 1 OR i = players - 1
  ) lows
  WINDOW w AS (ORDER BY k);
  IF players = 0 THEN
    INSERT INTO rank_blocks VALUES ('-Infinity', 0, 'Infinity', 0, 0, 0);
  END IF;
  UPDATE rank_meta SET total = players WHERE id = 1;
  RETURN players;
END $$;

SELECT rank_rebuild(2048, (extract(epoch FROM now()) * 1000)::bigint);

-- The whole-table snapshot the ranks job rebuilt every minute (leaderboard_ranks, leaderboard_builds)
-- is replaced by the view above. Its tables stay until a later migration: during a rolling deploy
-- the old version's processes still read and build them (docs/deploy.md).

-- ── Public stats (§3) ──────────────────────────────────────────────────────────────────────────
-- Changes to totalClick / totalPaticipant / totalEarn, one row per writing statement, folded into
-- stats_cache by the stats job (delete and add in one statement). Insert-only for writers: no row
-- is shared between concurrent transactions, so no lock is waited for.
--   players: a player joined;  clicks: taps accepted (the click group's write adds its sum);
--   earn: dollars, every DOLLAR ledger row but the click group's (which its write adds itself).
CREATE TABLE stats_deltas (
  players BIGINT NOT NULL DEFAULT 0,
  clicks  BIGINT NOT NULL DEFAULT 0,
  earn    NUMERIC NOT NULL DEFAULT 0
);

CREATE FUNCTION stats_player_joined() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_deltas (players, clicks) VALUES (1, NEW.total_click);
  RETURN NULL;
END $$;
CREATE TRIGGER users_stats_joined AFTER INSERT ON users FOR EACH ROW EXECUTE FUNCTION stats_player_joined();

CREATE FUNCTION stats_dollars_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_deltas (earn) VALUES (NEW.amount);
  RETURN NULL;
END $$;
-- The WHEN is evaluated per row without calling the function: a click group's rows cost nothing more.
CREATE TRIGGER ledger_stats_dollars AFTER INSERT ON ledger
  FOR EACH ROW WHEN (NEW.currency = 'DOLLAR' AND NEW.kind <> 'click') EXECUTE FUNCTION stats_dollars_changed();

INSERT INTO stats_cache (id, total_click, total_paticipant, total_earn, refreshed_at_ms)
SELECT 1, COALESCE(sum(total_click), 0), count(*), COALESCE(sum(total_earn), 0), (extract(epoch FROM now()) * 1000)::bigint FROM users
ON CONFLICT (id) DO UPDATE SET total_click = EXCLUDED.total_click, total_paticipant = EXCLUDED.total_paticipant,
  total_earn = EXCLUDED.total_earn, refreshed_at_ms = EXCLUDED.refreshed_at_ms;

-- ── Console counts (docs/admin.md "Dashboard") ─────────────────────────────────────────────────
-- Active players per day and the referral funnel, as deltas folded by the console job:
--   day/active: a player's first activity on `day` (last_active_ms entered that UTC day);
--   invited / reached / paid: a referral registered, its friend reached $100 (clicked_at_ms set, or
--   credited), its bonus paid.
CREATE TABLE console_deltas (
  day     DATE,
  active  INTEGER NOT NULL DEFAULT 0,
  invited INTEGER NOT NULL DEFAULT 0,
  reached INTEGER NOT NULL DEFAULT 0,
  paid    INTEGER NOT NULL DEFAULT 0
);

-- The marks and both delta tables are insert-only queues that their jobs empty: vacuumed every 1,000 rows.
ALTER TABLE rank_dirty SET (autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_insert_threshold = 1000, autovacuum_vacuum_insert_scale_factor = 0);
ALTER TABLE stats_deltas SET (autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_insert_threshold = 1000, autovacuum_vacuum_insert_scale_factor = 0);
ALTER TABLE console_deltas SET (autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_insert_threshold = 1000, autovacuum_vacuum_insert_scale_factor = 0);

CREATE FUNCTION console_player_active() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO console_deltas (day, active) VALUES (DATE '1970-01-01' + (NEW.last_active_ms / 86400000)::int, 1);
  RETURN NULL;
END $$;
CREATE TRIGGER users_console_active AFTER UPDATE OF last_active_ms ON users
  FOR EACH ROW WHEN (NEW.last_active_ms IS NOT NULL
                     AND (OLD.last_active_ms IS NULL OR OLD.last_active_ms / 86400000 <> NEW.last_active_ms / 86400000))
  EXECUTE FUNCTION console_player_active();
CREATE TRIGGER users_console_active_joined AFTER INSERT ON users
  FOR EACH ROW WHEN (NEW.last_active_ms IS NOT NULL) EXECUTE FUNCTION console_player_active();

CREATE FUNCTION console_referral_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was_reached INTEGER := 0;
  was_paid    INTEGER := 0;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    was_reached := (OLD.clicked_at_ms IS NOT NULL OR OLD.status = 'credited')::int;
    was_paid := (OLD.status = 'credited')::int;
  END IF;
  INSERT INTO console_deltas (invited, reached, paid)
  VALUES ((TG_OP = 'INSERT')::int, (NEW.clicked_at_ms IS NOT NULL OR NEW.status = 'credited')::int - was_reached,
          (NEW.status = 'credited')::int - was_paid);
  RETURN NULL;
END $$;
CREATE TRIGGER referrals_console_invited AFTER INSERT ON referrals FOR EACH ROW EXECUTE FUNCTION console_referral_changed();
CREATE TRIGGER referrals_console_progress AFTER UPDATE OF status, clicked_at_ms ON referrals
  FOR EACH ROW WHEN ((OLD.clicked_at_ms IS NULL) <> (NEW.clicked_at_ms IS NULL) OR OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION console_referral_changed();

INSERT INTO console_funnel (id, invited, reached_100, bonus_paid, updated_at_ms)
SELECT 1, count(*), count(*) FILTER (WHERE clicked_at_ms IS NOT NULL OR status = 'credited'), count(*) FILTER (WHERE status = 'credited'),
       (extract(epoch FROM now()) * 1000)::bigint
FROM referrals
ON CONFLICT (id) DO UPDATE SET invited = EXCLUDED.invited, reached_100 = EXCLUDED.reached_100, bonus_paid = EXCLUDED.bonus_paid,
  updated_at_ms = EXCLUDED.updated_at_ms;

INSERT INTO daily_stats AS d (day, active_players, updated_at_ms)
SELECT DATE '1970-01-01' + (last_active_ms / 86400000)::int, count(*), (extract(epoch FROM now()) * 1000)::bigint
FROM users WHERE last_active_ms >= (extract(epoch FROM now()) * 1000)::bigint / 86400000 * 86400000
GROUP BY 1
ON CONFLICT (day) DO UPDATE SET active_players = EXCLUDED.active_players, updated_at_ms = EXCLUDED.updated_at_ms;

-- ── Table settings for a primary of ten million players (docs/storage.md "Table settings") ────
-- users: every click group updates its players' rows in place (heap-only when the page has room),
-- so leave a fifth of each page free; vacuum and analyze after 2% of the rows changed, not 20%.
-- (fillfactor applies to pages written from now on; a VACUUM FULL or pg_repack applies it to all.)
ALTER TABLE users SET (fillfactor = 80, autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02);
-- ledger and click_batches: insert-mostly; vacuum after 2% new rows so the visibility map keeps
-- up (index-only reads) and freezing is spread out, not one long anti-wraparound pass.
ALTER TABLE ledger SET (autovacuum_vacuum_insert_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02);
ALTER TABLE click_batches SET (autovacuum_vacuum_insert_scale_factor = 0.02, autovacuum_vacuum_scale_factor = 0.05,
                               autovacuum_analyze_scale_factor = 0.05);
-- referrals: a popular referrer's friends' rows are updated on every share (earned).
ALTER TABLE referrals SET (fillfactor = 90, autovacuum_vacuum_scale_factor = 0.05);
-- Small rows rewritten every period: vacuum them after a few hundred changes.
ALTER TABLE stats_cache SET (autovacuum_vacuum_threshold = 100, autovacuum_vacuum_scale_factor = 0);
ALTER TABLE rank_meta SET (autovacuum_vacuum_threshold = 100, autovacuum_vacuum_scale_factor = 0);
ALTER TABLE console_funnel SET (autovacuum_vacuum_threshold = 100, autovacuum_vacuum_scale_factor = 0);
