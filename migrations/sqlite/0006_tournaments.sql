-- Tournaments in rooms (issue 11). Times are Unix milliseconds. Players and pairings
-- name guests by id without a foreign key: a guest's row may expire (never one who
-- played a game), and the names are kept here for the tables of results.
CREATE TABLE tournaments (
    id              TEXT    PRIMARY KEY,
    room            TEXT    NOT NULL,
    name            TEXT,
    kind            TEXT    NOT NULL,     -- 'round_robin' | 'swiss'
    status          TEXT    NOT NULL,     -- 'open' | 'running' | 'over'
    rounds          INTEGER NOT NULL,     -- Swiss: rounds asked for
    total_rounds    INTEGER NOT NULL,     -- rounds to play, fixed at the start (0 before)
    minutes         INTEGER NOT NULL,
    increment_s     INTEGER NOT NULL,
    max_players     INTEGER NOT NULL,
    bots            INTEGER NOT NULL,     -- 1: the computer fills empty places at the start
    bot_level       INTEGER NOT NULL,
    starts_at       INTEGER,              -- NULL: when full (or started by its creator)
    created_by      TEXT    NOT NULL,
    created_by_name TEXT    NOT NULL,
    created_at      INTEGER NOT NULL,
    started_at      INTEGER,
    ended_at        INTEGER,
    cancelled       INTEGER NOT NULL      -- 1: ended at its start time for want of players
);
CREATE INDEX tournaments_status ON tournaments (status);
CREATE INDEX tournaments_room_ended ON tournaments (room, ended_at);

-- Entrants in joining order (`seq`), which is the seed order.
CREATE TABLE tournament_players (
    tournament_id TEXT    NOT NULL REFERENCES tournaments (id),
    player_id     TEXT    NOT NULL,
    name          TEXT    NOT NULL,
    seq           INTEGER NOT NULL,
    left_round    INTEGER,              -- left: the first round forfeited
    PRIMARY KEY (tournament_id, player_id)
);

-- Boards of each round (board 1..); the bye is board 0 with no black player. A forfeit
-- has no table and no game; a result is NULL while the game is played.
CREATE TABLE tournament_pairings (
    tournament_id TEXT    NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    board         INTEGER NOT NULL,
    white_id      TEXT    NOT NULL,
    black_id      TEXT,
    table_id      TEXT,
    game_id       TEXT,
    result        TEXT,                 -- 'white' | 'black' | 'draw' | 'none' | NULL
    reason        TEXT,
    PRIMARY KEY (tournament_id, round, board)
);
CREATE INDEX tournament_pairings_game ON tournament_pairings (game_id);
