-- The game's authoritative state (docs/storage.md). Amounts are NUMERIC (exact); times are epoch
-- milliseconds (BIGINT) taken from the server's injected clock, so tests can step time.

-- One row per player. Balances, levels and energy live on the row on purpose: a click batch,
-- a claim and a purchase each touch exactly one row, so one conditional UPDATE is atomic.
CREATE TABLE users (
  id               BIGINT PRIMARY KEY,                 -- Telegram user id
  refcode          TEXT NOT NULL UNIQUE,
  ref_level        INTEGER NOT NULL DEFAULT 1,
  invite_cnt       INTEGER NOT NULL DEFAULT 0,
  referred_by      BIGINT REFERENCES users (id),
  tele_username    TEXT NOT NULL DEFAULT '',
  tele_name        TEXT NOT NULL DEFAULT '',           -- first + last name (CHECK_USERNAME)
  tele_avatar      TEXT,
  tele_age         INTEGER NOT NULL DEFAULT 0,         -- days
  tw_username      TEXT,
  tw_avatar        TEXT,
  tw_age           INTEGER NOT NULL DEFAULT 0,         -- days
  is_premium       BOOLEAN NOT NULL DEFAULT false,
  -- balances
  total_earn       NUMERIC NOT NULL DEFAULT 0 CHECK (total_earn >= 0),   -- dollars
  total_money      NUMERIC NOT NULL DEFAULT 0 CHECK (total_money >= 0),  -- MONEY
  total_ref        NUMERIC NOT NULL DEFAULT 0,         -- MONEY from invite bonuses
  total_money_ref  NUMERIC NOT NULL DEFAULT 0,         -- MONEY from friends' 5% shares
  total_click      BIGINT NOT NULL DEFAULT 0,
  -- levels: key 1 = finger_level, key 2 = energy_level, keys 3..21 in levels {"3": n, …}
  finger_level     INTEGER NOT NULL DEFAULT 1,
  energy_level     INTEGER NOT NULL DEFAULT 1,
  levels           JSONB NOT NULL DEFAULT '{}'::jsonb,
  -- energy: available = min(max, energy + floor((now - energy_at_ms) / 5 s))
  energy           INTEGER NOT NULL DEFAULT 500 CHECK (energy >= 0),
  energy_at_ms     BIGINT NOT NULL,
  -- human-rate allowance clock (engine/clicks.ts)
  tap_clock_ms     BIGINT NOT NULL,
  last_claimed_ms  BIGINT NOT NULL,
  is_claimed_welcome BOOLEAN NOT NULL DEFAULT false,
  is_claimed_easter  BOOLEAN NOT NULL DEFAULT false,
  pre_wl_coming    INTEGER NOT NULL DEFAULT 0,
  boost_channel_cnt INTEGER NOT NULL DEFAULT 0,
  created_at_ms    BIGINT NOT NULL
);
CREATE INDEX users_rank_idx ON users (total_earn DESC, id ASC);
CREATE INDEX users_referred_by_idx ON users (referred_by);

-- Every change of a balance, in the same transaction as the change (sum = balance).
CREATE TABLE ledger (
  id          BIGSERIAL PRIMARY KEY,
  user_id     BIGINT NOT NULL REFERENCES users (id),
  currency    TEXT NOT NULL CHECK (currency IN ('DOLLAR', 'MONEY')),
  amount      NUMERIC NOT NULL,
  kind        TEXT NOT NULL,
  reference   TEXT,
  created_at_ms BIGINT NOT NULL
);
CREATE INDEX ledger_user_idx ON ledger (user_id, currency);

-- A referral: registered once per friend; the invite bonus is pending until the friend's
-- totalEarn reaches $100, then credited to both sides.
CREATE TABLE referrals (
  friend_id     BIGINT PRIMARY KEY REFERENCES users (id),
  referrer_id   BIGINT NOT NULL REFERENCES users (id),
  bonus         NUMERIC NOT NULL,
  status        TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'credited')),
  created_at_ms BIGINT NOT NULL,
  credited_at_ms BIGINT
);
CREATE INDEX referrals_referrer_idx ON referrals (referrer_id, created_at_ms DESC);

-- Tasks and achievements, upserted at start from server/data/tasks.json.
CREATE TABLE tasks (
  id           INTEGER PRIMARY KEY,
  type         TEXT NOT NULL,
  handle_type  TEXT,
  title        TEXT NOT NULL,
  image        TEXT NOT NULL DEFAULT '',
  description  TEXT NOT NULL DEFAULT '',
  link         TEXT NOT NULL DEFAULT '',
  reward       NUMERIC NOT NULL DEFAULT 0,
  is_daily     BOOLEAN NOT NULL DEFAULT false,
  needs_captcha BOOLEAN NOT NULL DEFAULT false,
  sort_order   INTEGER NOT NULL DEFAULT 0,
  active       BOOLEAN NOT NULL DEFAULT true
);

-- Progress on a task: period is 'once' for one-off tasks, the UTC date for daily ones.
CREATE TABLE task_completions (
  user_id        BIGINT NOT NULL REFERENCES users (id),
  task_id        INTEGER NOT NULL REFERENCES tasks (id),
  period         TEXT NOT NULL,
  number_of_done INTEGER NOT NULL DEFAULT 0,
  has_done       BOOLEAN NOT NULL DEFAULT false,
  input_value    TEXT,
  updated_at_ms  BIGINT NOT NULL,
  PRIMARY KEY (user_id, task_id, period)
);
-- An exchange account id counts for one player only.
CREATE UNIQUE INDEX task_completions_input_idx ON task_completions (task_id, input_value) WHERE input_value IS NOT NULL;

-- Idempotency of POST /click: the first answer's accepted count per (user, batchId).
CREATE TABLE click_batches (
  user_id       BIGINT NOT NULL REFERENCES users (id),
  batch_id      TEXT NOT NULL,
  requested     INTEGER NOT NULL,
  accepted      INTEGER NOT NULL,
  created_at_ms BIGINT NOT NULL,
  PRIMARY KEY (user_id, batch_id)
);

-- The wallet forecast, once per user (the 7777 MONEY prize is paid later).
CREATE TABLE forecasts (
  user_id       BIGINT PRIMARY KEY REFERENCES users (id),
  days          INTEGER NOT NULL CHECK (days > 0),
  created_at_ms BIGINT NOT NULL
);
