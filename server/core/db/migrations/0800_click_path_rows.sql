-- POST /click writes, per batch, one click_batches row and one ledger row in the group's single
-- statement (docs/storage.md, "Click groups"). Each foreign key on users(id) ran a trigger per
-- inserted row that looked the player up and locked their row FOR KEY SHARE (a WAL record of
-- its own), about a quarter of PostgreSQL's CPU per batch. Both references are kept by the
-- writers instead: every ledger row is written in the transaction that changed that player's
-- balance (an UPDATE of their row), every click_batches row by the statement that updated their
-- row or for a player the request authenticated, and no users row is ever deleted
-- (docs/decisions/server.md, "Click path").
ALTER TABLE click_batches DROP CONSTRAINT IF EXISTS click_batches_user_id_fkey;
ALTER TABLE ledger DROP CONSTRAINT IF EXISTS ledger_user_id_fkey;
-- (user_id, currency) is served by ledger_user_id_idx (user_id, id DESC) from 0600: one index
-- fewer to insert into per ledger row.
DROP INDEX IF EXISTS ledger_user_idx;
