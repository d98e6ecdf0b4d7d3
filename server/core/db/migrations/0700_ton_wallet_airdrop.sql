-- TON wallet link (TON Connect ton_proof) and the mintless-jetton airdrop snapshot (docs/airdrop.md).
-- Times are epoch milliseconds from the server's injected clock, like 0001_init.sql.

-- ton_proof payloads the server issued: single use, short-lived, bound to the player. Only the
-- SHA-256 (hex) of the payload is kept.
CREATE TABLE ton_proof_payloads (
  payload_hash   TEXT PRIMARY KEY,
  user_id        BIGINT NOT NULL REFERENCES users (id),
  issued_at_ms   BIGINT NOT NULL,
  expires_at_ms  BIGINT NOT NULL,
  used_at_ms     BIGINT
);
CREATE INDEX ton_proof_payloads_expiry_idx ON ton_proof_payloads (expires_at_ms);

-- One wallet per player (the key) and one player per wallet (the unique address). Unlinking deletes the row.
CREATE TABLE ton_wallets (
  user_id         BIGINT PRIMARY KEY REFERENCES users (id),
  address         TEXT NOT NULL UNIQUE,              -- raw form 0:<64 hex>, basechain
  public_key      TEXT NOT NULL,                     -- hex, from the wallet's state init
  wallet_version  TEXT NOT NULL,
  linked_at_ms    BIGINT NOT NULL
);

-- One row per airdrop round; immutable once status = 'built'.
CREATE TABLE airdrop_rounds (
  round          INTEGER PRIMARY KEY CHECK (round > 0),
  status         TEXT NOT NULL CHECK (status IN ('building', 'built')),
  start_from     BIGINT NOT NULL,                    -- unix seconds (TEP-177 start_from)
  expire_at      BIGINT NOT NULL,                    -- unix seconds (TEP-177 expired_at)
  wallets        INTEGER NOT NULL,
  total_amount   NUMERIC NOT NULL,                   -- jetton units (9 decimals)
  merkle_root    TEXT,                               -- hex, set when built
  boc_bytes      BIGINT,
  created_at_ms  BIGINT NOT NULL,
  built_at_ms    BIGINT
);

-- The frozen allocations of a round: written once, in the statement that creates the round.
-- Addresses are unique within a round because ton_wallets.address is; the only index is the
-- player's lookup (a second index over a million random addresses doubled the freeze time), and
-- there is no foreign key (a per-row check on a million-row insert): only the freeze writes here,
-- with its round row, in one transaction.
CREATE TABLE airdrop_allocations (
  user_id  BIGINT NOT NULL,
  round    INTEGER NOT NULL,
  address  TEXT NOT NULL,
  amount   NUMERIC NOT NULL CHECK (amount > 0),      -- jetton units (9 decimals)
  PRIMARY KEY (user_id, round)
);

-- The round's dictionary as a bag of cells, in chunks (a million entries is about 60 MB).
-- STORAGE EXTERNAL: a BoC is incompressible; TOAST should not try.
CREATE TABLE airdrop_dict_chunks (
  round  INTEGER NOT NULL REFERENCES airdrop_rounds (round),
  seq    INTEGER NOT NULL,
  bytes  BYTEA NOT NULL,
  PRIMARY KEY (round, seq)
);
ALTER TABLE airdrop_dict_chunks ALTER COLUMN bytes SET STORAGE EXTERNAL;
