-- Several nodes on one PostgreSQL (docs/scaling.md): each node's lease, and the one
-- owner of each table (and tournament) with the epoch that fences its writes.
CREATE TABLE nodes (
    id         TEXT PRIMARY KEY,
    addr       TEXT NOT NULL,
    -- Milliseconds since the epoch, by the database's clock (never a node's).
    started_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    state      TEXT NOT NULL DEFAULT 'live' CHECK (state IN ('live', 'leaving', 'gone'))
);

CREATE TABLE table_owners (
    table_id TEXT PRIMARY KEY,
    room     TEXT NOT NULL,
    node     TEXT NOT NULL REFERENCES nodes (id),
    -- Bumped at every change of owner: a write fenced with an older epoch is refused.
    epoch    BIGINT NOT NULL
);

CREATE INDEX table_owners_node ON table_owners (node);
