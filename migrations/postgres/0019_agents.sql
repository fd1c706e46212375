-- Agents online (issue 33; docs/agents.md, "Putting it online"). A bot account (`bot`, set once
-- and never unset) plays only through a personal token with the `bot` scope and is rated apart
-- from people: rated games are between two bots or two people.
ALTER TABLE accounts ADD COLUMN bot BOOLEAN NOT NULL DEFAULT FALSE;

-- Challenges: one account asks another for a game. `state` is `open` until it is `accepted`
-- (`game_id` set), `declined` (with `reason`) or `canceled`; an open challenge past `expires_ms`
-- counts as expired wherever it is read, so every process sees the same. Each seat's token in the
-- game is derived from `secret` (docs/agents.md): the event streams of both accounts can show it.
CREATE TABLE challenges (
    id                 TEXT PRIMARY KEY,
    challenger         TEXT NOT NULL REFERENCES accounts (id),
    challenged         TEXT NOT NULL REFERENCES accounts (id),
    width              INTEGER NOT NULL,
    height             INTEGER NOT NULL,
    clock_initial_ms   BIGINT NOT NULL,
    clock_increment_ms BIGINT NOT NULL,
    rated              BOOLEAN NOT NULL,
    color              TEXT NOT NULL,
    preset             TEXT,
    created_ms         BIGINT NOT NULL,
    expires_ms         BIGINT NOT NULL,
    state              TEXT NOT NULL DEFAULT 'open',
    reason             TEXT,
    closed_ms          BIGINT,
    game_id            TEXT,
    challenger_color   TEXT,
    secret             TEXT NOT NULL
);
CREATE INDEX challenges_challenger ON challenges (challenger, state);
CREATE INDEX challenges_challenged ON challenges (challenged, state);

-- Open event streams (`GET /api/stream/event`), one row each, pulsed while open: the bound of
-- streams per account and the list of bots online read them on every process.
CREATE TABLE event_streams (
    id         TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    seen_ms    BIGINT NOT NULL
);
CREATE INDEX event_streams_account ON event_streams (account_id, seen_ms);
