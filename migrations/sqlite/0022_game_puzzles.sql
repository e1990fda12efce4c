-- Puzzles found in analysed games (issue 37, item 4): where a player blundered into a
-- shot, the shot verified by the puzzle generator's own verification joins the pool of
-- its variant beside the starter set (which is data in the repository). `line` and
-- `themes` are JSON arrays of strings; a position is kept once per variant.
CREATE TABLE game_puzzles (
    id          TEXT    PRIMARY KEY,
    variant     TEXT    NOT NULL,
    fen         TEXT    NOT NULL,
    line        TEXT    NOT NULL,
    themes      TEXT    NOT NULL,
    rating      INTEGER NOT NULL,
    game_id     TEXT    NOT NULL,
    ply         INTEGER NOT NULL,
    created_at  BIGINT  NOT NULL,
    UNIQUE (variant, fen)
);
