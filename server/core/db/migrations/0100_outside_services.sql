-- Outside services (docs/outside-services.md). Times are epoch milliseconds from the server's injected clock,
-- like 0001_init.sql.

-- Turnstile tokens already presented: a token counts once, whatever siteverify says later.
-- The token itself is not kept, only its SHA-256 (hex).
CREATE TABLE captcha_tokens_used (
  token_hash   TEXT PRIMARY KEY,
  action       TEXT NOT NULL,
  used_at_ms   BIGINT NOT NULL
);
CREATE INDEX captcha_tokens_used_at_idx ON captcha_tokens_used (used_at_ms);

-- One ad watch: issued by /start-watch-ads, rewarded once by whichever comes first of the
-- client's /claim-ads-reward and Adsgram's server callback (the dedupe key is the nonce).
CREATE TABLE ad_watch_sessions (
  nonce           TEXT PRIMARY KEY,
  user_id         BIGINT NOT NULL REFERENCES users (id),
  issued_at_ms    BIGINT NOT NULL,
  expires_at_ms   BIGINT NOT NULL,
  rewarded_at_ms  BIGINT,
  rewarded_via    TEXT CHECK (rewarded_via IN ('client', 'callback', 'limit')),
  token_used_at_ms BIGINT
);
CREATE INDEX ad_watch_sessions_open_idx ON ad_watch_sessions (user_id, issued_at_ms) WHERE rewarded_at_ms IS NULL;

-- X OAuth 2 state: bound to the Telegram user, single use, 10-minute TTL. Only the SHA-256 of
-- the state is stored; the PKCE verifier must be kept to redeem the code.
CREATE TABLE x_oauth_states (
  state_hash     TEXT PRIMARY KEY,
  user_id        BIGINT NOT NULL REFERENCES users (id),
  code_verifier  TEXT NOT NULL,
  redirect_to    TEXT NOT NULL,
  created_at_ms  BIGINT NOT NULL,
  expires_at_ms  BIGINT NOT NULL,
  used_at_ms     BIGINT
);
CREATE INDEX x_oauth_states_expiry_idx ON x_oauth_states (expires_at_ms);

-- An X account belongs to the first player who links it, for good (never released), so one X
-- account cannot raise the welcome reward of several players.
CREATE TABLE x_accounts (
  tw_user_id    TEXT PRIMARY KEY,
  user_id       BIGINT NOT NULL REFERENCES users (id),
  linked_at_ms  BIGINT NOT NULL
);
CREATE INDEX x_accounts_user_idx ON x_accounts (user_id);

-- Broadcasts (POST /public/send-telemss): one row per message, one row per recipient.
CREATE TABLE broadcasts (
  id             BIGSERIAL PRIMARY KEY,
  message        TEXT NOT NULL,
  buttons        JSONB NOT NULL DEFAULT '[]'::jsonb,
  total          INTEGER NOT NULL,
  created_at_ms  BIGINT NOT NULL,
  finished_at_ms BIGINT
);

-- status: pending → sending (claimed by one worker) → sent | failed | uncertain.
-- 'uncertain' = a worker died between sending and recording: never re-sent (none twice).
CREATE TABLE broadcast_recipients (
  broadcast_id   BIGINT NOT NULL REFERENCES broadcasts (id),
  chat_id        BIGINT NOT NULL,
  status         TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'failed', 'uncertain')),
  attempts       INTEGER NOT NULL DEFAULT 0,
  not_before_ms  BIGINT NOT NULL DEFAULT 0,
  claimed_by     TEXT,
  claimed_at_ms  BIGINT,
  done_at_ms     BIGINT,
  telegram_message_id BIGINT,
  error          TEXT,
  PRIMARY KEY (broadcast_id, chat_id)
);
CREATE INDEX broadcast_recipients_pending_idx ON broadcast_recipients (broadcast_id, chat_id) WHERE status = 'pending';
CREATE INDEX broadcast_recipients_sending_idx ON broadcast_recipients (claimed_at_ms) WHERE status = 'sending';

-- The public stats, refreshed by the stats job so /public/stats need not scan users.
CREATE TABLE stats_cache (
  id                SMALLINT PRIMARY KEY CHECK (id = 1),
  total_click       BIGINT NOT NULL,
  total_paticipant  BIGINT NOT NULL,
  total_earn        NUMERIC NOT NULL,
  refreshed_at_ms   BIGINT NOT NULL
);

-- Scheduled jobs: the last day each daily job ran, so a restart neither skips nor repeats it.
CREATE TABLE job_runs (
  job            TEXT PRIMARY KEY,
  last_period    TEXT NOT NULL,
  last_run_at_ms BIGINT NOT NULL
);
