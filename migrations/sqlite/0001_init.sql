-- Guests, games and moves. Times are Unix milliseconds; options are plain columns.
CREATE TABLE guests (
    id          TEXT    PRIMARY KEY,
    name        TEXT    NOT NULL,
    token_hash  TEXT    NOT NULL UNIQUE,   -- hex SHA-256 of the session token
    created_at  INTEGER NOT NULL,
    seen_at     INTEGER NOT NULL
);

CREATE TABLE games (
    id               TEXT    PRIMARY KEY,
    table_id         TEXT    NOT NULL,
    room             TEXT    NOT NULL,
    variant          TEXT    NOT NULL,
    minutes          INTEGER NOT NULL,
    increment_s      INTEGER NOT NULL,
    random_opening   INTEGER NOT NULL,
    capture_optional INTEGER NOT NULL,
    white_id         TEXT    NOT NULL REFERENCES guests (id),
    white_name       TEXT    NOT NULL,
    black_id         TEXT    NOT NULL REFERENCES guests (id),
    black_name       TEXT    NOT NULL,
    initial_fen      TEXT    NOT NULL,
    opening_plies    INTEGER NOT NULL,
    status           TEXT    NOT NULL,     -- 'playing' | 'over'
    result           TEXT,                 -- 'white' | 'black' | 'draw' | NULL
    reason           TEXT,
    -- clock snapshot: remaining times as of ply `clock_ply` (flushed on shutdown and at the end)
    white_ms         INTEGER NOT NULL,
    black_ms         INTEGER NOT NULL,
    clock_ply        INTEGER NOT NULL,
    started_at       INTEGER NOT NULL,
    ended_at         INTEGER
);
CREATE INDEX games_status ON games (status);
CREATE INDEX games_room_ended ON games (room, ended_at);

CREATE TABLE moves (
    game_id   TEXT    NOT NULL REFERENCES games (id),
    ply       INTEGER NOT NULL,
    mv        TEXT    NOT NULL,
    fen_after TEXT    NOT NULL,
    white_ms  INTEGER NOT NULL,
    black_ms  INTEGER NOT NULL,
    used_ms   INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);
