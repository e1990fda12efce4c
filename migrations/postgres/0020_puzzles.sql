-- Puzzles (issue 37): an account's puzzle rating per variant (Glicko-2, apart from its game
-- ratings), the puzzles it has played (never given again), and each puzzle's own rating
-- as its solvers move it. The puzzles themselves are data in the repository
-- (crates/bot/puzzles/); a guest's puzzle rating lives in the server's memory only.
CREATE TABLE puzzle_ratings (
    player_id   TEXT    NOT NULL REFERENCES guests (id),
    variant     TEXT    NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    rd          DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    games       BIGINT NOT NULL,
    rated_at    BIGINT NOT NULL,
    PRIMARY KEY (player_id, variant)
);
CREATE TABLE puzzle_attempts (
    player_id   TEXT    NOT NULL REFERENCES guests (id),
    puzzle_id   TEXT    NOT NULL,
    solved      BIGINT NOT NULL,
    at          BIGINT NOT NULL,
    PRIMARY KEY (player_id, puzzle_id)
);
CREATE TABLE puzzle_stats (
    puzzle_id   TEXT    PRIMARY KEY,
    rating      DOUBLE PRECISION NOT NULL,
    rd          DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    plays       BIGINT NOT NULL,
    solved      BIGINT NOT NULL
);
