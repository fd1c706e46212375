-- Events (issue 24; docs/events.md): teams play each other in rounds. An event belongs to its
-- organiser's account; `round` is the last round paired (0 in registration) and `rounds` how
-- many it will have (a round robin's is known at the start; a Swiss one's is asked for, and
-- cut short when no pairing is left). Pairing a round is one transaction that moves `round`
-- on from the value it read, so that two processes asked at once pair it once.
CREATE TABLE events (
    id                 TEXT PRIMARY KEY,
    organiser          TEXT NOT NULL REFERENCES accounts (id),
    name               TEXT NOT NULL,
    format             TEXT NOT NULL,
    double_round       INTEGER NOT NULL,
    rounds             INTEGER,
    round              INTEGER NOT NULL DEFAULT 0,
    status             TEXT NOT NULL,
    discovery          INTEGER NOT NULL,
    clock_initial_ms   INTEGER NOT NULL,
    clock_increment_ms INTEGER NOT NULL,
    created_ms         INTEGER NOT NULL
);
CREATE INDEX events_organiser ON events (organiser, status);

-- Teams in the order they were added (`seq`, their seed). The join code and the team's token
-- are stored as SHA-256 hashes only; the token is derived from the code, so every member who
-- joins gets the same one. The lineup (a preset's code and the king squares as White sees them,
-- JSON) is what each following game of the team starts with.
CREATE TABLE event_teams (
    id         TEXT PRIMARY KEY,
    event_id   TEXT NOT NULL REFERENCES events (id),
    seq        INTEGER NOT NULL,
    name       TEXT NOT NULL,
    name_key   TEXT NOT NULL,
    code_hash  BLOB NOT NULL UNIQUE,
    token_hash BLOB NOT NULL UNIQUE,
    preset     TEXT,
    kings      TEXT,
    UNIQUE (event_id, seq),
    UNIQUE (event_id, name_key)
);

-- Each round's boards: White's and Black's team (`black` NULL: a bye for White) and the game,
-- whose status is the board's result. `start_ms`: when the game starts by itself if both teams
-- have not declared ready (any process's sweep does it; cleared once it has started).
CREATE TABLE event_boards (
    event_id TEXT NOT NULL REFERENCES events (id),
    round    INTEGER NOT NULL,
    board    INTEGER NOT NULL,
    white    TEXT NOT NULL REFERENCES event_teams (id),
    black    TEXT REFERENCES event_teams (id),
    game_id  TEXT UNIQUE,
    start_ms INTEGER,
    PRIMARY KEY (event_id, round, board)
);
CREATE INDEX event_boards_start ON event_boards (start_ms) WHERE start_ms IS NOT NULL;
