-- What was left of the pending first move's window when the server stopped gracefully
-- (ms; NULL when no window applied or after a crash), so a restart keeps it.
ALTER TABLE games ADD COLUMN first_move_ms INTEGER;

-- The probe write of the storage circuit breaker: one row inserted and deleted in the
-- same transaction, so it is always empty.
CREATE TABLE write_probe (
    id  INTEGER PRIMARY KEY,
    pad BLOB
);
