-- The computer's seats (`bot-1` .. `bot-3`) as guests, so its games keep the same
-- references as anyone's. Their token hashes are not hex, so no session can ever match
-- them; guest expiry never removes them.
INSERT INTO guests (id, name, token_hash, created_at, seen_at) VALUES
    ('bot-1', 'Computer (level 1)', 'computer-seat-1', 0, 0),
    ('bot-2', 'Computer (level 2)', 'computer-seat-2', 0, 0),
    ('bot-3', 'Computer (level 3)', 'computer-seat-3', 0, 0);
