-- The integrity review judges cadence from the client's own clock where it can, and looks at groups
-- (docs/airdrop.md "Integrity review").

-- The device's clock (ms) at a batch's first tap, as the mini-app sends it (firstTapMs); NULL when
-- not sent. No default: adding it rewrites nothing.
ALTER TABLE click_batches ADD COLUMN client_ms BIGINT NULL;

-- integrity_players: the client's clock in the session (server/integrity/cadence.ts), the server's
-- gaps beside it, the session in progress, and the group signals' facts (server/integrity/groups.ts).
ALTER TABLE integrity_players ADD COLUMN last_client_ms BIGINT;
ALTER TABLE integrity_players ADD COLUMN client_offset_ms BIGINT;
ALTER TABLE integrity_players ADD COLUMN last_server_ms BIGINT;
ALTER TABLE integrity_players ADD COLUMN win_server_gap_mean DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE integrity_players ADD COLUMN win_server_gap_m2 DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE integrity_players ADD COLUMN session_start_ms BIGINT;
ALTER TABLE integrity_players ADD COLUMN session_batches INTEGER NOT NULL DEFAULT 0;
ALTER TABLE integrity_players ADD COLUMN session_taps INTEGER NOT NULL DEFAULT 0;
-- the most joins into one of the player's ancestors' subtrees around their own join, and that ancestor
ALTER TABLE integrity_players ADD COLUMN tree_burst INTEGER NOT NULL DEFAULT 0;
ALTER TABLE integrity_players ADD COLUMN tree_burst_ancestor BIGINT;
-- as an ancestor: accounts in the subtree (down to INTEGRITY_TREE_DEPTH) and how many joined young
ALTER TABLE integrity_players ADD COLUMN tree_size INTEGER NOT NULL DEFAULT 0;
ALTER TABLE integrity_players ADD COLUMN tree_young INTEGER NOT NULL DEFAULT 0;
-- the most sessions twinned with one sibling's at one offset, and that sibling
ALTER TABLE integrity_players ADD COLUMN twin_best INTEGER NOT NULL DEFAULT 0;
ALTER TABLE integrity_players ADD COLUMN twin_sibling BIGINT;
-- as a referrer or ancestor, what their invitees' signals read: 2 = invitees stop past $100, 4 = a young subtree
ALTER TABLE integrity_players ADD COLUMN group_flags INTEGER NOT NULL DEFAULT 0;
-- players whose session has not been closed yet (the job closes it once its last batch is old)
CREATE INDEX integrity_players_open_session_idx ON integrity_players (last_batch_ms) WHERE session_batches > 0;

-- Each account under each of its ancestors, down to INTEGRITY_TREE_DEPTH levels, written by the job
-- as referrals arrive; young = a Telegram account younger than INTEGRITY_YOUNG_DAYS when it joined.
CREATE TABLE integrity_tree (
  ancestor_id  BIGINT NOT NULL,
  friend_id    BIGINT NOT NULL,
  depth        SMALLINT NOT NULL,
  joined_ms    BIGINT NOT NULL,
  young        BOOLEAN NOT NULL,
  PRIMARY KEY (ancestor_id, friend_id)
);
CREATE INDEX integrity_tree_friend_idx ON integrity_tree (friend_id, depth);
CREATE INDEX integrity_tree_joined_idx ON integrity_tree (ancestor_id, joined_ms);

-- Sessions of at least INTEGRITY_TWIN_MIN_BATCHES batches, kept two twin windows, by their group
-- (the top ancestor within INTEGRITY_TREE_DEPTH, or the player) and shape.
CREATE TABLE integrity_sessions (
  user_id      BIGINT NOT NULL,
  group_id     BIGINT NOT NULL,
  start_ms     BIGINT NOT NULL,
  duration_ms  BIGINT NOT NULL,
  batches      INTEGER NOT NULL,
  taps         INTEGER NOT NULL,
  PRIMARY KEY (user_id, start_ms)
);
CREATE INDEX integrity_sessions_shape_idx ON integrity_sessions (group_id, batches, taps, start_ms);
CREATE INDEX integrity_sessions_start_idx ON integrity_sessions (start_ms);

-- Pairs of siblings (a < b) whose sessions were twins: the offset (a's start − b's) and how many times.
CREATE TABLE integrity_twins (
  a          BIGINT NOT NULL,
  b          BIGINT NOT NULL,
  offset_ms  BIGINT NOT NULL,
  matches    INTEGER NOT NULL,
  PRIMARY KEY (a, b)
);

-- Invitees reaching $100, by when (the job judges whether they stopped there).
CREATE INDEX referrals_clicked_idx ON referrals (clicked_at_ms) WHERE clicked_at_ms IS NOT NULL;
