-- Indexes of what the public lookups and the guest sweep read (issue 34).
--
-- A player's games by end time (profiles, a player's PDN in keyset pages of
-- (ended_at, id)), also what the guest sweep's "played no game" reads and what deleting a
-- guest checks through the foreign keys of games.white_id and games.black_id: without them
-- each of these read every game.
CREATE INDEX games_white_ended ON games (white_id, ended_at, id);
CREATE INDEX games_black_ended ON games (black_id, ended_at, id);
-- A room's finished games in keyset pages of (ended_at, id).
DROP INDEX games_room_ended;
CREATE INDEX games_room_ended ON games (room, ended_at, id);
-- The guest sweep walks the guests not seen lately in (seen_at, id) order.
CREATE INDEX guests_seen ON guests (seen_at, id);
