-- The analysis queue (issue 34, item 11): a job's priority (0 for an account's own game,
-- 1 for any other request) orders the queue before the time of the request, and a running
-- job stores how far it got (plies searched of all), so any node can show a job's queue
-- position and progress.
ALTER TABLE games_analysis ADD COLUMN priority INTEGER NOT NULL DEFAULT 1;
ALTER TABLE games_analysis ADD COLUMN searched INTEGER;
ALTER TABLE games_analysis ADD COLUMN positions INTEGER;
CREATE INDEX games_analysis_queue ON games_analysis (status, priority, requested_at);

-- Fair play (issue 34, item 6): where accounts were seen from (an address as the server
-- keys its limits), kept --address-days, for the operator's report of suspicious pairs
-- (damka account pairs).
CREATE TABLE player_addresses (
    player_id TEXT    NOT NULL REFERENCES guests (id),
    address   TEXT    NOT NULL,
    seen_at   INTEGER NOT NULL,
    PRIMARY KEY (player_id, address)
);
CREATE INDEX player_addresses_address ON player_addresses (address);
CREATE INDEX player_addresses_seen ON player_addresses (seen_at);
