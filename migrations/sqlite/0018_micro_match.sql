-- Micro-matches (issue 38, item 2): the match a game belongs to (the id of the match's
-- first game; NULL outside a micro-match) and which of its two games it is (1 or 2), so
-- a restart between the two games, or during the second, resumes the match.
ALTER TABLE games ADD COLUMN match_id TEXT;
ALTER TABLE games ADD COLUMN match_game INTEGER;
CREATE INDEX games_match ON games (match_id) WHERE match_id IS NOT NULL;
