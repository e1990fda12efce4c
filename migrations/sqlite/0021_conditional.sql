-- Conditional moves (issue 40, item 4): a running correspondence game's prepared replies
-- of the side not to move, as JSON `{"by": "white"|"black", "ply": N, "lines": [[move,
-- ..], ..]}` (`ply`: the moves played when they were set or last advanced; a game that
-- has moved on since, by a crash between a move and its reply, drops them). NULL: none.
ALTER TABLE games ADD COLUMN conditional TEXT;
