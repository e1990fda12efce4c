-- Chat of rooms and tables (the last messages are sent on connect). `scope` is
-- 'room:<room id>' or 'table:<table id>'; `spectators` is 1 for a spectator's table message
-- during a game (only spectators see it). `seq` orders messages that share a millisecond.
CREATE TABLE chat (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    id         TEXT    NOT NULL UNIQUE,
    scope      TEXT    NOT NULL,
    from_id    TEXT    NOT NULL,
    from_name  TEXT    NOT NULL,
    text       TEXT    NOT NULL,
    spectators INTEGER NOT NULL,
    at         INTEGER NOT NULL      -- Unix ms
);
CREATE INDEX chat_scope_seq ON chat (scope, seq);
