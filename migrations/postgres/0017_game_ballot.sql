-- Opening ballots at a table (issue 38, item 2): the ballot a game started from (its id in
-- the variant's sets, draughts::ballot; NULL for the start position or a random opening),
-- and whether the table draws a new ballot for each game ("ballot": "random"), so a
-- restored table goes on drawing. initial_fen holds the ballot's position.
ALTER TABLE games ADD COLUMN ballot TEXT;
ALTER TABLE games ADD COLUMN ballot_random BIGINT NOT NULL DEFAULT 0;
