-- The lobby (docs/service.md, "Lobby"): open seeks and the games they were paired into.
-- A seek is open while `game_id` is NULL; pairing sets `game_id` and `seat` in the transaction
-- that creates the game; a withdrawn seek is deleted. `token` is the SHA-256 of the seek's token,
-- `seat_token` the SHA-256 of the seat token its seeker gets on pairing (derived from the seek's
-- token, so that no token is ever stored in the clear). `client` is who made it, for the
-- per-client bound.
CREATE TABLE seeks (
    id                 TEXT PRIMARY KEY,
    token              BYTEA NOT NULL,
    seat_token         BYTEA NOT NULL,
    client             TEXT NOT NULL,
    width              INTEGER NOT NULL,
    height             INTEGER NOT NULL,
    clock_initial_ms   BIGINT NOT NULL,
    clock_increment_ms BIGINT NOT NULL,
    color              TEXT NOT NULL,
    created_ms         BIGINT NOT NULL,
    game_id            TEXT,
    seat               TEXT
);

-- When a seek's stream last showed it alive: apart from `seeks` (and without a foreign key), so
-- that the stream's heartbeat never locks the seek row a pairing wants (`SKIP LOCKED` would pass
-- it over).
CREATE TABLE seek_pulses (
    seek_id TEXT PRIMARY KEY,
    seen_ms BIGINT NOT NULL
);

-- Pairing reads the open seeks of one pool (clock and board), oldest first.
CREATE INDEX seeks_open ON seeks (width, height, clock_initial_ms, clock_increment_ms, created_ms)
    WHERE game_id IS NULL;
-- The per-client bound counts a client's open seeks.
CREATE INDEX seeks_client ON seeks (client) WHERE game_id IS NULL;
-- 401 or 403 for a token (as 0003).
CREATE INDEX seeks_token ON seeks (token);
-- The sweep forgets paired seeks by age.
CREATE INDEX seeks_created ON seeks (created_ms);
CREATE INDEX seek_pulses_seen ON seek_pulses (seen_ms);
