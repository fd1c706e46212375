-- Accounts (issue 23; docs/service.md, "Accounts"): a username unique without regard to case
-- (`username_key`, its lower case), the Argon2id hash of the password (a PHC string), and the
-- Glicko-2 rating. A deleted account keeps its row, so that its games still name a player, but
-- loses its password and its key (the name is free again).
CREATE TABLE accounts (
    id            TEXT PRIMARY KEY,
    username      TEXT NOT NULL,
    username_key  TEXT UNIQUE,
    password_hash TEXT,
    created_ms    INTEGER NOT NULL,
    deleted_ms    INTEGER,
    rating        REAL NOT NULL DEFAULT 1500,
    deviation     REAL NOT NULL DEFAULT 500,
    volatility    REAL NOT NULL DEFAULT 0.09,
    rated_games   INTEGER NOT NULL DEFAULT 0
);

-- Signed-in browsers: the SHA-256 of the session id the `gmo_session` cookie holds, until when
-- it holds (renewed on use). Deleted at sign-out, so every process refuses it at once.
CREATE TABLE sessions (
    id_hash    BLOB PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    expires_ms INTEGER NOT NULL
);
CREATE INDEX sessions_expiry ON sessions (expires_ms);

-- Personal tokens (`gmo_…`) with which scripts act as an account: stored hashed, listed without
-- their secret, revocable.
CREATE TABLE personal_tokens (
    id          TEXT PRIMARY KEY,
    account_id  TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    token_hash  BLOB NOT NULL UNIQUE,
    description TEXT NOT NULL,
    scopes      TEXT NOT NULL,
    created_ms  INTEGER NOT NULL
);
CREATE INDEX personal_tokens_account ON personal_tokens (account_id);

-- Failed sign-ins and sign-ups, by username (`user:…`) and by address (`addr:…`), for the
-- throttle (10 in 10 minutes); old rows are swept.
CREATE TABLE auth_failures (
    key   TEXT NOT NULL,
    at_ms INTEGER NOT NULL
);
CREATE INDEX auth_failures_key ON auth_failures (key, at_ms);
