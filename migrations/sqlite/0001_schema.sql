-- GMO chess schema (SQLite). docs/architecture.md explains it; it mirrors migrations/postgres.

-- Every genome ever stored, by code (rules §2.5). The digest is the identity: the code is only its
-- first 30 bits (of `dna` or, after a collision, of `dna#salt`), so it is unique on its own.
CREATE TABLE genomes (
    code   TEXT PRIMARY KEY,
    digest BLOB NOT NULL UNIQUE,
    dna    TEXT NOT NULL,
    salt   INTEGER NOT NULL DEFAULT 0
) STRICT;

-- Names the standard genomes answer to (`rook`, …).
CREATE TABLE genome_names (
    name TEXT PRIMARY KEY,
    code TEXT NOT NULL REFERENCES genomes (code)
) STRICT;

-- Presets: a back rank of genome codes, file a first, joined by `-` (`text`); coded like genomes.
CREATE TABLE presets (
    code   TEXT PRIMARY KEY,
    digest BLOB NOT NULL UNIQUE,
    text   TEXT NOT NULL,
    salt   INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE preset_names (
    name TEXT PRIMARY KEY,
    code TEXT NOT NULL REFERENCES presets (code)
) STRICT;

-- A game: its settings, the hashes of its seat tokens, and the engine's state as JSON. `version`
-- counts the changes applied; `plies` is the length of its record (the next ply's `seq`).
-- `deadline_ms` is when the running clock falls (NULL when none runs or the game is over).
CREATE TABLE games (
    id               TEXT PRIMARY KEY,
    version          INTEGER NOT NULL,
    status           TEXT NOT NULL,
    finished         INTEGER NOT NULL DEFAULT 0,
    width            INTEGER NOT NULL,
    height           INTEGER NOT NULL,
    clock_initial_ms INTEGER NOT NULL,
    white_bot        TEXT,
    black_bot        TEXT,
    white_token      BLOB,
    black_token      BLOB,
    state            TEXT NOT NULL,
    plies            INTEGER NOT NULL DEFAULT 0,
    deadline_ms      INTEGER,
    created_at       TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
    updated_at       TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
) STRICT;

-- The expiry sweep reads only games whose clock runs, oldest deadline first.
CREATE INDEX games_deadline ON games (deadline_ms) WHERE deadline_ms IS NOT NULL;

-- A game's record: one row per ply, in order.
CREATE TABLE plies (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    ply     TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) STRICT;

-- A lab (sandbox) board: the hash of its token and the board as JSON.
CREATE TABLE labs (
    id         TEXT PRIMARY KEY,
    token      BLOB NOT NULL,
    version    INTEGER NOT NULL,
    width      INTEGER NOT NULL,
    height     INTEGER NOT NULL,
    board      TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
    updated_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
) STRICT;
