-- Analysis of finished games (issue 25): one job per game, the row is the unit. A request
-- inserts it (ON CONFLICT DO NOTHING: asking again, on any node, finds the same job); a
-- node claims it by setting `claim` and `lease_until`, renews the lease as it goes, and
-- stores the result once done. A job whose lease ran out (its node died) is claimed again
-- by any node. Times are Unix milliseconds.
CREATE TABLE games_analysis (
    game_id      TEXT    PRIMARY KEY REFERENCES games (id),
    status       TEXT    NOT NULL CHECK (status IN ('queued', 'running', 'done')),
    -- Who asked (a player id) and from where, for the fair queue.
    requested_by TEXT    NOT NULL,
    address      TEXT,
    requested_at BIGINT NOT NULL,
    -- The claim of the node running it (a random token per attempt), and until when.
    claim        TEXT,
    lease_until  BIGINT,
    -- The search budget it was made with, and the result (JSON: the plies), once done.
    budget       TEXT,
    result       TEXT,
    done_at      BIGINT
);
CREATE INDEX games_analysis_status ON games_analysis (status);
