-- Tournaments from opening ballots, in micro-match rounds (issue 38, item 3): the ballot
-- choice as created ('random', a ballot's id, or NULL for the start position), whether
-- each pairing plays a micro-match (two games, colours swapped; its two boards are
-- numbered 2k-1 and 2k), and the ballot each round's games start from.
ALTER TABLE tournaments ADD COLUMN ballot TEXT;
ALTER TABLE tournaments ADD COLUMN micro_match INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournament_pairings ADD COLUMN ballot TEXT;
