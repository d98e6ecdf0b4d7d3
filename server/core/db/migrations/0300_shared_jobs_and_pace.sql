-- N identical processes (docs/faults.md). Each scheduled job's last finished period: a run
-- locks the job's row (FOR UPDATE SKIP LOCKED), does its work and records the period in the same
-- transaction, so each period runs once across processes and a killed run leaves nothing behind.
CREATE TABLE job_schedule (
  job            TEXT PRIMARY KEY,
  last_period    TEXT NOT NULL DEFAULT '',
  runs           BIGINT NOT NULL DEFAULT 0,
  last_run_at_ms BIGINT NOT NULL DEFAULT 0
);

-- Sends toward Telegram share one budget across processes: the next free slot, the times of the
-- last sends (at most the rate per window, checked when a send goes out) and a 429 pause, all in
-- the database's clock (epoch ms), so hosts whose clocks differ still agree.
CREATE TABLE send_pace (
  name            TEXT PRIMARY KEY,
  next_slot_ms    DOUBLE PRECISION NOT NULL DEFAULT 0,
  recent_ms       DOUBLE PRECISION[] NOT NULL DEFAULT '{}',
  paused_until_ms DOUBLE PRECISION NOT NULL DEFAULT 0
);
