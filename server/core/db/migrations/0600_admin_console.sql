-- The operator console (docs/admin.md): sessions, the append-only audit log, frozen players,
-- the player's Telegram language, the last active day, task edits, forecast settlement,
-- broadcast segments and cancel, and the aggregates the dashboard reads.

-- A frozen player's clicks, claims and purchases are refused (docs/admin.md "Freeze").
ALTER TABLE users ADD COLUMN frozen_at TIMESTAMPTZ NULL;
-- Telegram's language_code from init data (broadcast language segment).
ALTER TABLE users ADD COLUMN language_code TEXT NULL;
-- Written at most once per player per UTC day per process by the auth hook (DAU, segments).
ALTER TABLE users ADD COLUMN last_active_ms BIGINT NULL;
CREATE INDEX users_frozen_idx ON users (id) WHERE frozen_at IS NOT NULL;
-- Console search by username prefix, case-insensitive; these columns never change on a click,
-- so click updates stay heap-only (0002).
CREATE INDEX users_username_search_idx ON users (lower(tele_username) text_pattern_ops);
CREATE INDEX users_created_idx ON users (created_at_ms);
CREATE INDEX users_last_active_idx ON users (last_active_ms);
CREATE INDEX users_language_idx ON users (language_code);
-- A player's ledger, newest first, paged by id (keyset).
CREATE INDEX ledger_user_id_idx ON ledger (user_id, id DESC);

-- Console sessions: only the SHA-256 of the cookie is stored.
CREATE TABLE admin_sessions (
  token_hash    TEXT PRIMARY KEY,
  admin_id      BIGINT NOT NULL,
  csrf_token    TEXT NOT NULL,
  created_at_ms BIGINT NOT NULL,
  expires_at_ms BIGINT NOT NULL
);
CREATE INDEX admin_sessions_expiry_idx ON admin_sessions (expires_at_ms);

-- Every admin action: who, when, what, before and after. Append-only: the trigger below refuses
-- UPDATE, DELETE and TRUNCATE, whoever asks.
CREATE TABLE admin_audit (
  id         BIGSERIAL PRIMARY KEY,
  admin_id   BIGINT NOT NULL,
  at_ms      BIGINT NOT NULL,
  action     TEXT NOT NULL,
  target     TEXT NOT NULL DEFAULT '',
  before     JSONB,
  after      JSONB
);
CREATE FUNCTION admin_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'admin_audit is append-only';
END;
$$;
CREATE TRIGGER admin_audit_no_update BEFORE UPDATE OR DELETE ON admin_audit
  FOR EACH ROW EXECUTE FUNCTION admin_audit_append_only();
CREATE TRIGGER admin_audit_no_truncate BEFORE TRUNCATE ON admin_audit
  FOR EACH STATEMENT EXECUTE FUNCTION admin_audit_append_only();

-- A task edited in the console keeps its edit: the seed file no longer overwrites it.
ALTER TABLE tasks ADD COLUMN edited_at_ms BIGINT NULL;

-- The forecast's settlement: the wallet's real launch day, set once.
CREATE TABLE forecast_settlement (
  id            SMALLINT PRIMARY KEY CHECK (id = 1),
  launch_day    DATE NOT NULL,
  settled_by    TEXT NOT NULL,
  settled_at_ms BIGINT NOT NULL
);
ALTER TABLE forecasts ADD COLUMN prize_paid_at_ms BIGINT NULL;

-- Broadcasts: a segment description, and cancel (pending recipients become 'cancelled').
ALTER TABLE broadcasts ADD COLUMN segment JSONB NULL;
ALTER TABLE broadcasts ADD COLUMN cancelled_at_ms BIGINT NULL;
ALTER TABLE broadcast_recipients DROP CONSTRAINT broadcast_recipients_status_check;
ALTER TABLE broadcast_recipients ADD CONSTRAINT broadcast_recipients_status_check
  CHECK (status IN ('pending', 'sending', 'sent', 'failed', 'uncertain', 'cancelled'));

-- The dashboard's aggregates, one row per UTC day, kept by the console job (never a scan per view).
CREATE TABLE daily_stats (
  day            DATE PRIMARY KEY,
  total_players  BIGINT NOT NULL DEFAULT 0,
  new_players    BIGINT NOT NULL DEFAULT 0,
  active_players BIGINT NOT NULL DEFAULT 0,
  taps           BIGINT NOT NULL DEFAULT 0,
  ads_watched    BIGINT NOT NULL DEFAULT 0,
  invited        BIGINT NOT NULL DEFAULT 0,
  bonus_paid     BIGINT NOT NULL DEFAULT 0,
  updated_at_ms  BIGINT NOT NULL
);
-- The referral funnel over all time (invited → friend reached $100 → bonus paid), same job.
CREATE TABLE console_funnel (
  id             SMALLINT PRIMARY KEY CHECK (id = 1),
  invited        BIGINT NOT NULL,
  reached_100    BIGINT NOT NULL,
  bonus_paid     BIGINT NOT NULL,
  updated_at_ms  BIGINT NOT NULL
);

-- Cheat signals per player, folded in by the console job from click_batches (docs/admin.md).
CREATE TABLE cheat_signals (
  user_id        BIGINT PRIMARY KEY,
  clipped_batches BIGINT NOT NULL DEFAULT 0,
  refused_taps   BIGINT NOT NULL DEFAULT 0,
  accepted_taps  BIGINT NOT NULL DEFAULT 0,
  last_at_ms     BIGINT NOT NULL
);
CREATE INDEX cheat_signals_clipped_idx ON cheat_signals (clipped_batches DESC);
CREATE INDEX cheat_signals_refused_idx ON cheat_signals (refused_taps DESC);
-- Incremental folding: how far the job has read click_batches, and range reads for it.
CREATE TABLE admin_job_marks (
  job      TEXT PRIMARY KEY,
  mark_ms  BIGINT NOT NULL
);
CREATE INDEX click_batches_created_idx ON click_batches (created_at_ms);
CREATE INDEX ad_watch_sessions_rewarded_idx ON ad_watch_sessions (rewarded_at_ms) WHERE rewarded_at_ms IS NOT NULL;
CREATE INDEX referrals_created_idx ON referrals (created_at_ms);
CREATE INDEX referrals_credited_idx ON referrals (credited_at_ms) WHERE credited_at_ms IS NOT NULL;
