-- Who plays (issue 23): a seat may belong to an account, linked when the game comes from the
-- account's seek or accept, or when the seat's token and the account's session or personal token
-- reach the game together; with the account's rating when it was linked (the rating the game
-- is shown with). A rated game changes both ratings in the transaction that ends it; the
-- changes are kept here (`*_rating_diff`, NULL until then), so a game is rated once.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN created_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_account TEXT REFERENCES accounts (id);
ALTER TABLE games ADD COLUMN black_account TEXT REFERENCES accounts (id);
ALTER TABLE games ADD COLUMN white_rating REAL;
ALTER TABLE games ADD COLUMN black_rating REAL;
ALTER TABLE games ADD COLUMN white_deviation REAL;
ALTER TABLE games ADD COLUMN black_deviation REAL;
ALTER TABLE games ADD COLUMN white_rating_diff INTEGER;
ALTER TABLE games ADD COLUMN black_rating_diff INTEGER;

-- An account's games, newest first, page by page.
CREATE INDEX games_white_account ON games (white_account, created_ms, id)
    WHERE white_account IS NOT NULL;
CREATE INDEX games_black_account ON games (black_account, created_ms, id)
    WHERE black_account IS NOT NULL;

-- One point per rated game and player: the rating after it.
CREATE TABLE rating_history (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    game_id    TEXT NOT NULL,
    at_ms      INTEGER NOT NULL,
    value      REAL NOT NULL,
    deviation  REAL NOT NULL,
    PRIMARY KEY (account_id, game_id)
);
CREATE INDEX rating_history_account ON rating_history (account_id, at_ms);

-- The leaderboard reads established ratings, best first.
CREATE INDEX accounts_leaderboard ON accounts (rating) WHERE deleted_ms IS NULL;

-- Seeks of accounts: the seeker's seat is the account's; a rated seek pairs only with another
-- account's rated seek.
ALTER TABLE seeks ADD COLUMN account_id TEXT;
ALTER TABLE seeks ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
