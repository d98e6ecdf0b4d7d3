-- The ranked view rebuilt by a table swap (docs/scaling.md "A bulk import", docs/storage.md
-- "Maintained ranks and counters"). Migration 0980's rank_rebuild emptied and refilled rank_entries
-- and rank_blocks in place, every row passing through their three indexes, in one transaction: at
-- ten million players that ran past the jobs' 10-minute statement bound. Now the rebuild is two
-- steps. rank_build fills new tables, rank_entries_next and rank_blocks_next, with no index, in key
-- order, builds their indexes and constraints after the fill, and records what it built in
-- rank_next; readers keep using the old view meanwhile, the build locks nothing they read.
-- rank_swap then, in its own short transaction, drops the old tables and renames the new ones (and
-- their indexes and constraints) to the canonical names: readers wait only for the renames, and a
-- reader's statement sees the old view or the new one.

-- The view built and not yet swapped in: at most one row, written in the build's transaction, so
-- a row means the next tables are complete. While it exists the incremental apply leaves the marks
-- alone (they would change a view about to be dropped) and the ranks job finishes the swap first.
CREATE TABLE rank_next (
  id          SMALLINT PRIMARY KEY CHECK (id = 1),
  version     BIGINT NOT NULL,
  total       BIGINT NOT NULL,
  block_size  INTEGER NOT NULL,
  built_at_ms BIGINT NOT NULL
);

-- The next view from users, as a new version: the tables (and settings) of migration 0980,
-- indexes made after the rows are in. Marks are left in place (the caller deletes the marks it covers).
CREATE FUNCTION rank_build(size INTEGER, now_ms BIGINT) RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
  players BIGINT;
  v BIGINT;
BEGIN
  -- A build that was never swapped in (a rebuild that stopped between its steps) is replaced.
  DROP TABLE IF EXISTS rank_entries_next, rank_blocks_next;
  DELETE FROM rank_next;
  SELECT version + 1 INTO v FROM rank_meta WHERE id = 1;
  -- NOT NULL named as PostgreSQL names it on rank_entries (18 keeps them in pg_constraint; 15 ignores the name).
  CREATE TABLE rank_entries_next (
    user_id     BIGINT CONSTRAINT rank_entries_user_id_not_null NOT NULL,
    total_money NUMERIC CONSTRAINT rank_entries_total_money_not_null NOT NULL,
    neg_id      BIGINT CONSTRAINT rank_entries_neg_id_not_null NOT NULL,
    version     BIGINT CONSTRAINT rank_entries_version_not_null NOT NULL
  ) WITH (fillfactor = 90, autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02);
  -- In key order (total_money, neg_id), so the heap follows the key index (users_money_rank_idx
  -- read backwards gives this order without a sort).
  INSERT INTO rank_entries_next (user_id, total_money, neg_id, version)
  SELECT id, total_money, -id, v FROM users ORDER BY total_money, id DESC;
  GET DIAGNOSTICS players = ROW_COUNT;
  ALTER TABLE rank_entries_next ADD CONSTRAINT rank_entries_next_pkey PRIMARY KEY (user_id);
  CREATE INDEX rank_entries_next_key_idx ON rank_entries_next (total_money, neg_id);
  CREATE INDEX rank_entries_next_version_idx ON rank_entries_next (version);

  CREATE TABLE rank_blocks_next (
    lo_money NUMERIC CONSTRAINT rank_blocks_lo_money_not_null NOT NULL,
    lo_neg   BIGINT CONSTRAINT rank_blocks_lo_neg_not_null NOT NULL,
    hi_money NUMERIC CONSTRAINT rank_blocks_hi_money_not_null NOT NULL,
    hi_neg   BIGINT CONSTRAINT rank_blocks_hi_neg_not_null NOT NULL,
    n        BIGINT CONSTRAINT rank_blocks_n_not_null NOT NULL,
    above    BIGINT CONSTRAINT rank_blocks_above_not_null NOT NULL
  ) WITH (fillfactor = 50, autovacuum_vacuum_threshold = 200, autovacuum_vacuum_scale_factor = 0);
  -- Block k (0 at the top) holds the entries k·size … (k+1)·size − 1 in leaderboard order; its lo is
  -- its last entry's key (the bottom block: −Infinity), its hi the lo of the block above (+Infinity).
  INSERT INTO rank_blocks_next (lo_money, lo_neg, hi_money, hi_neg, n, above)
  SELECT CASE WHEN k = last THEN '-Infinity'::numeric ELSE m END, CASE WHEN k = last THEN 0 ELSE g END,
         COALESCE(lag(m) OVER w, 'Infinity'::numeric), COALESCE(lag(g) OVER w, 0),
         LEAST(size, players - k * size), k * size
  FROM (
    SELECT i / size AS k, total_money AS m, neg_id AS g, (players - 1) / size AS last
    FROM (SELECT total_money, neg_id, row_number() OVER (ORDER BY total_money DESC, neg_id DESC) - 1 AS i FROM rank_entries_next) r
    WHERE i % size = size - 1 OR i = players - 1
  ) lows
  WINDOW w AS (ORDER BY k);
  IF players = 0 THEN
    INSERT INTO rank_blocks_next VALUES ('-Infinity', 0, 'Infinity', 0, 0, 0);
  END IF;
  -- A constraint's name is per table: it takes the canonical name at once, but for the index a
  -- primary key is, whose name is per schema.
  ALTER TABLE rank_blocks_next ADD CONSTRAINT rank_blocks_n_check CHECK (n >= 0),
                               ADD CONSTRAINT rank_blocks_next_pkey PRIMARY KEY (lo_money, lo_neg);
  CREATE INDEX rank_blocks_next_above_idx ON rank_blocks_next (above);
  -- Statistics before the first reader plans against the tables (a prepared statement is planned
  -- again once the swap invalidates it).
  ANALYZE rank_entries_next;
  ANALYZE rank_blocks_next;
  INSERT INTO rank_next (id, version, total, block_size, built_at_ms) VALUES (1, v, players, size, now_ms);
  RETURN players;
END $$;

-- Swaps the built view in, when one waits (else NULL; NULL too for a build the old view outran):
-- the old tables are dropped and the new ones
-- renamed with their indexes and constraints, so later migrations and `\d` find the names of 0980.
-- A reader holding the old tables is waited for; readers arriving meanwhile wait for the swap and
-- then read the new tables (PostgreSQL looks a name up again after waiting for its lock, and plans
-- a prepared statement again when a table it used is dropped). The view holds every change marked
-- before the build began: caught_up_at_ms is the build's moment.
CREATE FUNCTION rank_swap(now_ms BIGINT) RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
  nx rank_next%ROWTYPE;
BEGIN
  SELECT * INTO nx FROM rank_next WHERE id = 1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  -- The old view moved since the build (an apply of the previous version of the code, which does
  -- not know rank_next, during a rolling deploy): it took marks the build had not seen, so the
  -- build misses their changes. It is dropped and every player marked: the job rebuilds again.
  IF (SELECT version FROM rank_meta WHERE id = 1) <> nx.version - 1 THEN
    DROP TABLE rank_entries_next, rank_blocks_next;
    DELETE FROM rank_next;
    INSERT INTO rank_dirty (user_id) SELECT id FROM users;
    RETURN NULL;
  END IF;
  -- Both tables, in the order a reader's statement names them.
  LOCK TABLE rank_entries, rank_blocks IN ACCESS EXCLUSIVE MODE;
  DROP TABLE rank_entries, rank_blocks;
  ALTER TABLE rank_entries_next RENAME TO rank_entries;
  ALTER TABLE rank_entries RENAME CONSTRAINT rank_entries_next_pkey TO rank_entries_pkey;
  ALTER INDEX rank_entries_next_key_idx RENAME TO rank_entries_key_idx;
  ALTER INDEX rank_entries_next_version_idx RENAME TO rank_entries_version_idx;
  ALTER TABLE rank_blocks_next RENAME TO rank_blocks;
  ALTER TABLE rank_blocks RENAME CONSTRAINT rank_blocks_next_pkey TO rank_blocks_pkey;
  ALTER INDEX rank_blocks_next_above_idx RENAME TO rank_blocks_above_idx;
  UPDATE rank_meta SET version = nx.version, total = nx.total, block_size = nx.block_size, applied_at_ms = now_ms,
                       caught_up_at_ms = nx.built_at_ms
  WHERE id = 1;
  DELETE FROM rank_next;
  RETURN nx.total;
END $$;

-- Both steps in one transaction (by hand; 0980's version built the first view): the ranks job runs them
-- in two (server/leaderboard/rank-view.ts, rebuildRanks). Marks are left in place.
CREATE OR REPLACE FUNCTION rank_rebuild(size INTEGER, now_ms BIGINT) RETURNS BIGINT LANGUAGE plpgsql AS $$
BEGIN
  PERFORM rank_build(size, now_ms);
  RETURN rank_swap(now_ms);
END $$;
