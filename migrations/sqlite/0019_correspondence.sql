-- Correspondence games (issue 40, item 1): days per move (1, 2, 3, 5, 7, 10 or 14), NULL
-- for a live game (minutes and increment_s are 0 for a correspondence game); a restored
-- game's clock resets the mover's time to this many days after each move. `deadline`:
-- when a running correspondence game's side to move runs out of time (Unix ms), as of
-- its last clock save (after each move, every hour and at shutdown), for "my games".
ALTER TABLE games ADD COLUMN days INTEGER;
ALTER TABLE games ADD COLUMN deadline INTEGER;
