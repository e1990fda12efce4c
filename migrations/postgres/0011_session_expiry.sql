-- Sessions expire (issue 34): `used_at` is when a session was last used (a request or a
-- socket with its cookie, written at most once every few minutes), for the idle limit;
-- the absolute limit counts from `created_at`. Sessions made before count as used when
-- they were made. Times are Unix milliseconds.
ALTER TABLE sessions ADD COLUMN used_at BIGINT NOT NULL DEFAULT 0;
UPDATE sessions SET used_at = created_at;
CREATE INDEX sessions_used ON sessions (used_at);
CREATE INDEX sessions_created ON sessions (created_at);
