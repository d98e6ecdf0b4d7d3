-- The integrity review before the airdrop snapshot (docs/airdrop.md "Integrity review"): signals
-- computed per player by a job (server/integrity/), a review players see, operators' decisions.

-- What the player sees in their status: the review's state (NULL = clear) and its reason codes.
-- A copy of integrity_players.state and reasons, written with them in one statement by
-- server/integrity/ only, so that every status stays one read of the player's row.
ALTER TABLE users ADD COLUMN airdrop_review TEXT NULL CHECK (airdrop_review IN ('review', 'excluded'));
ALTER TABLE users ADD COLUMN airdrop_reasons TEXT[] NULL;

-- The random device ids the mini-app sends with its click batches (x-device-id), one row per
-- (device, player), written at most once a day per player and device per process. '' is a click
-- batch that came without one.
CREATE TABLE integrity_devices (
  device_id      TEXT NOT NULL,
  user_id        BIGINT NOT NULL,
  first_seen_ms  BIGINT NOT NULL,
  last_seen_ms   BIGINT NOT NULL,
  PRIMARY KEY (device_id, user_id)
);
CREATE INDEX integrity_devices_user_idx ON integrity_devices (user_id);
CREATE INDEX integrity_devices_first_seen_idx ON integrity_devices (first_seen_ms);

-- How far the job has read: click batches, new devices and referrals before mark_ms are folded in.
CREATE TABLE integrity_mark (
  id       SMALLINT PRIMARY KEY CHECK (id = 1),
  mark_ms  BIGINT NOT NULL
);

-- Per player: the tap-cadence accumulators the job folds click batches into, the signals' result
-- (score, reason codes, evidence), the state, and the operators' decision and appeal.
CREATE TABLE integrity_players (
  user_id            BIGINT PRIMARY KEY,
  -- the previous batch of any kind, and the previous one that counted (auto-clicks do not)
  last_any_ms        BIGINT,
  last_batch_ms      BIGINT,
  last_size          INTEGER,
  -- the rhythm window in progress: Welford sums of the gaps (ms) and sizes (taps)
  win_n              INTEGER NOT NULL DEFAULT 0,
  win_gap_mean       DOUBLE PRECISION NOT NULL DEFAULT 0,
  win_gap_m2         DOUBLE PRECISION NOT NULL DEFAULT 0,
  win_size_mean      DOUBLE PRECISION NOT NULL DEFAULT 0,
  win_size_m2        DOUBLE PRECISION NOT NULL DEFAULT 0,
  windows            INTEGER NOT NULL DEFAULT 0,
  regular_windows    INTEGER NOT NULL DEFAULT 0,
  -- time tapping (gaps inside a session) and the part of it at the human-rate cap
  active_ms          BIGINT NOT NULL DEFAULT 0,
  cap_ms             BIGINT NOT NULL DEFAULT 0,
  -- the stretch of play with no pause in progress, and the longest
  stretch_start_ms   BIGINT,
  longest_stretch_ms BIGINT NOT NULL DEFAULT 0,
  -- active hours: bit i = the hour `hour_mark - i` (epoch hours) had a batch; the most in any 24
  hour_mark          BIGINT,
  hours_mask         INTEGER NOT NULL DEFAULT 0,
  max_day_hours      INTEGER NOT NULL DEFAULT 0,
  -- the referrer's side: their invitees look like a farm (their invitees' signal reads it)
  referral_farm      BOOLEAN NOT NULL DEFAULT false,
  -- the result
  score              INTEGER NOT NULL DEFAULT 0,
  reasons            TEXT[] NOT NULL DEFAULT '{}',
  evidence           JSONB NOT NULL DEFAULT '{}'::jsonb,
  state              TEXT NOT NULL DEFAULT 'clear' CHECK (state IN ('clear', 'review', 'excluded')),
  -- in the operators' list: under review, or ever decided
  flagged            BOOLEAN NOT NULL DEFAULT false,
  -- the operators' decision (server/integrity/decisions.ts), with the reasons it saw
  decision           TEXT NULL CHECK (decision IN ('cleared', 'excluded')),
  decided_reasons    TEXT[] NOT NULL DEFAULT '{}',
  decided_by         BIGINT,
  decided_at_ms      BIGINT,
  decision_note      TEXT NOT NULL DEFAULT '',
  appeal             TEXT NULL CHECK (appeal IN ('upheld', 'overturned')),
  appeal_at_ms       BIGINT,
  appeal_note        TEXT NOT NULL DEFAULT '',
  scored_at_ms       BIGINT NOT NULL DEFAULT 0
);
-- The operators' list, highest score first, keyset-paged (GET /public/airdrop/flags, the console).
CREATE INDEX integrity_players_flagged_idx ON integrity_players (score DESC, user_id DESC) WHERE flagged;

-- What a round did with excluded players (docs/airdrop.md "Exclusions"): their withheld amount,
-- and whether it went to the eligible players pro rata or was left unminted.
ALTER TABLE airdrop_rounds ADD COLUMN excluded_money TEXT NOT NULL DEFAULT 'unminted' CHECK (excluded_money IN ('unminted', 'redistributed'));
ALTER TABLE airdrop_rounds ADD COLUMN excluded_players INTEGER NOT NULL DEFAULT 0;
ALTER TABLE airdrop_rounds ADD COLUMN excluded_amount NUMERIC NOT NULL DEFAULT 0;
ALTER TABLE airdrop_rounds ADD COLUMN excluded_reasons JSONB NOT NULL DEFAULT '{}'::jsonb;
-- Each excluded player a round left out, with the amount withheld and the reasons on record.
CREATE TABLE airdrop_exclusions (
  round    INTEGER NOT NULL,
  user_id  BIGINT NOT NULL,
  amount   NUMERIC NOT NULL,                          -- jetton units withheld
  reasons  TEXT[] NOT NULL,
  PRIMARY KEY (round, user_id)
);
