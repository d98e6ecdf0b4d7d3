-- The daily loop (docs/rules.md §15): the streak, the combo, the cipher and the bot's reminders.
-- A day is a UTC day, stored as its number (days since 1970-01-01), never as a time zone's date.

-- What the status shows of a player's day lives on their row, so every status answer (a click
-- batch's too) carries it without another read. None of these columns is indexed and no click
-- writes them, so click updates stay heap-only (0002).
ALTER TABLE users ADD COLUMN daily_streak_day INTEGER NOT NULL DEFAULT 0;     -- day of the last streak claim, 0 = never
ALTER TABLE users ADD COLUMN daily_streak_count INTEGER NOT NULL DEFAULT 0;   -- consecutive days claimed, ending that day
ALTER TABLE users ADD COLUMN daily_combo_day INTEGER NOT NULL DEFAULT 0;      -- the day daily_combo_found is about
ALTER TABLE users ADD COLUMN daily_combo_found INTEGER[] NOT NULL DEFAULT '{}'; -- that day's combo cards found, in order found
ALTER TABLE users ADD COLUMN daily_cipher_day INTEGER NOT NULL DEFAULT 0;     -- the day the two cipher columns are about
ALTER TABLE users ADD COLUMN daily_cipher_solved BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE users ADD COLUMN daily_cipher_misses INTEGER NOT NULL DEFAULT 0;  -- wrong guesses that day (the rate limit)
ALTER TABLE users ADD COLUMN reminders_off BOOLEAN NOT NULL DEFAULT false;    -- the profile card's switch

-- Each day's combo (three passive cards) and cipher word. An operator sets coming days in the
-- console; the daily-puzzles job (or the first player of the day) fills a day left unset from the
-- server secret. A day's row never changes once the day has begun.
CREATE TABLE daily_puzzles (
  day           INTEGER PRIMARY KEY,
  combo         INTEGER[] CHECK (combo IS NULL OR cardinality(combo) = 3),
  combo_set_by  BIGINT,            -- the admin id (0 = the operator API); NULL = picked by the server
  cipher        TEXT CHECK (cipher IS NULL OR cipher ~ '^[A-Z]{1,12}$'),
  cipher_set_by BIGINT,
  updated_at_ms BIGINT NOT NULL
);

-- Each day's finds, claims and reminders for the console, counted in the transaction of each
-- event. A player's events land in one of 16 rows of the day (user id mod 16), so players claiming
-- at midnight do not queue on one row; the console sums the 16.
CREATE TABLE daily_counts (
  day              INTEGER NOT NULL,
  shard            SMALLINT NOT NULL,
  streak_claims    BIGINT NOT NULL DEFAULT 0,
  combo_finds      BIGINT NOT NULL DEFAULT 0,   -- combo cards found
  combo_wins       BIGINT NOT NULL DEFAULT 0,   -- all three found (paid)
  cipher_wins      BIGINT NOT NULL DEFAULT 0,
  cipher_misses    BIGINT NOT NULL DEFAULT 0,
  reminders_queued BIGINT NOT NULL DEFAULT 0,
  reminders_blocked BIGINT NOT NULL DEFAULT 0,  -- players found to have blocked the bot (never tried again)
  PRIMARY KEY (day, shard)
);

-- The bot's reminders (docs/rules.md §15.4). remind_at_ms is the earliest moment the player may be
-- due, kept on every write that can make them due sooner; the reminders job reads only the rows
-- whose moment has come, through the partial index, so its work grows with the players due.
CREATE TABLE daily_reminders (
  user_id         BIGINT PRIMARY KEY,
  -- How many distinct clock hours (UTC) the player was active in, by hour of the day: their day.
  active_hours    INTEGER[] NOT NULL DEFAULT array_fill(0, ARRAY[24]),
  seen_hour       BIGINT NOT NULL DEFAULT 0,   -- epoch hour last counted in active_hours
  remind_at_ms    BIGINT,
  reminded_day    INTEGER NOT NULL DEFAULT 0,
  reminded_at_ms  BIGINT NOT NULL DEFAULT 0,
  last_broadcast_id BIGINT,                    -- the broadcast that carried the last reminder
  blocked_at_ms   BIGINT                       -- Telegram answered 403: never tried again
);
CREATE INDEX daily_reminders_due_idx ON daily_reminders (remind_at_ms) WHERE remind_at_ms IS NOT NULL;

-- The broadcast that carries one day's reminders of one kind in one language (the bot's queue,
-- server/bot/): created on the first such reminder of the day, recipients appended after.
CREATE TABLE daily_reminder_broadcasts (
  day          INTEGER NOT NULL,
  reason       TEXT NOT NULL CHECK (reason IN ('streak', 'passive', 'energy')),
  language     TEXT NOT NULL,
  broadcast_id BIGINT NOT NULL,
  PRIMARY KEY (day, reason, language)
);
