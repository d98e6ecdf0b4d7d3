-- The console's Shop page lists the payments no order took, until each is refunded (docs/admin.md
-- "Shop"): a partial index that holds only those, so the list never scans the payments.
CREATE INDEX star_payments_unmatched_idx ON star_payments (received_at_ms) WHERE NOT credited AND refunded_at_ms IS NULL;
