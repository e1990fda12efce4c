-- Accounts and ratings (issue 23). A guest becomes an account in place: the account row
-- names the guest's id, so its games, seats and tournaments stay its own. Times are Unix
-- milliseconds.
CREATE TABLE accounts (
    player_id     TEXT    PRIMARY KEY REFERENCES guests (id),
    username      TEXT    NOT NULL,
    -- The username folded (case, look-alikes: the display names' skeleton): unique.
    username_key  TEXT    NOT NULL UNIQUE,
    -- PHC string of the Argon2id hash (algorithm, parameters, salt, hash).
    password_hash TEXT    NOT NULL,
    created_at    INTEGER NOT NULL,
    disabled      INTEGER NOT NULL DEFAULT 0
);

-- An account's sessions (one per signed-in device), by the SHA-256 of their token as a
-- guest's own session is kept in guests.token_hash.
CREATE TABLE sessions (
    token_hash  TEXT    PRIMARY KEY,
    player_id   TEXT    NOT NULL REFERENCES guests (id),
    created_at  INTEGER NOT NULL
);
CREATE INDEX sessions_player ON sessions (player_id);

-- Glicko-2 per player and variant, exact (the wire rounds).
CREATE TABLE ratings (
    player_id   TEXT    NOT NULL REFERENCES guests (id),
    variant     TEXT    NOT NULL,
    rating      REAL NOT NULL,
    rd          REAL NOT NULL,
    volatility  REAL NOT NULL,
    games       INTEGER NOT NULL,
    -- The last rated game's end: the RD grows from here.
    rated_at    INTEGER NOT NULL,
    PRIMARY KEY (player_id, variant)
);
CREATE INDEX ratings_board ON ratings (variant, rating);

-- Every rated game's change, for the profile's chart and the game's record.
CREATE TABLE rating_history (
    game_id     TEXT    NOT NULL REFERENCES games (id),
    player_id   TEXT    NOT NULL REFERENCES guests (id),
    variant     TEXT    NOT NULL,
    at          INTEGER NOT NULL,
    rating_before REAL NOT NULL,
    rating_after  REAL NOT NULL,
    rd          REAL NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
CREATE INDEX rating_history_player ON rating_history (player_id, variant, at);

ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
