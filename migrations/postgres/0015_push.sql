-- Web Push (issue 40): the server's VAPID key (one row, made at the first start, shared by
-- every node), the browsers' subscriptions (by their endpoint, the push service's URL),
-- and what each account wants to be told. A subscription the push service refuses (404,
-- 410) is deleted.
CREATE TABLE push_keys (
    id         BIGINT PRIMARY KEY CHECK (id = 1),
    -- The P-256 secret, base64url (32 bytes).
    secret     TEXT    NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE TABLE push_subscriptions (
    endpoint   TEXT    PRIMARY KEY,
    player_id  TEXT    NOT NULL REFERENCES guests (id),
    -- The browser's P-256 public key (uncompressed, base64url) and its auth secret.
    p256dh     TEXT    NOT NULL,
    auth       TEXT    NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX push_subscriptions_player ON push_subscriptions (player_id);
CREATE TABLE push_settings (
    player_id  TEXT    PRIMARY KEY REFERENCES guests (id),
    your_turn  BIGINT NOT NULL DEFAULT 1,
    offers     BIGINT NOT NULL DEFAULT 1,
    game_end   BIGINT NOT NULL DEFAULT 1,
    time_low   BIGINT NOT NULL DEFAULT 1
);
