-- The draw offer of a running game, so a restart keeps it: the side whose offer was the
-- last one made and not explicitly declined (a later move by the other side declines it
-- too; the restart works that out from the moves), and each side's ply count at its
-- last offer (the offer rate limit).
ALTER TABLE games
    ADD COLUMN draw_offer      TEXT,                  -- 'white' | 'black' | NULL
    ADD COLUMN white_offer_ply BIGINT,
    ADD COLUMN black_offer_ply BIGINT;
