-- Bots that survive their process (docs/operations.md, "Bots"; docs/architecture.md).
-- `bot_due_ms`: from when a bot is to act (NULL when no bot is to move or the game is over).
-- `bot_holder`, `bot_lease_ms`: the process thinking for it and until when its lease holds; any
-- process takes over a due turn whose lease has run out.
-- `creator_token`: SHA-256 of the token that lets the creator of a game between two bots stop it.
ALTER TABLE games ADD COLUMN bot_due_ms INTEGER;
ALTER TABLE games ADD COLUMN bot_holder TEXT;
ALTER TABLE games ADD COLUMN bot_lease_ms INTEGER;
ALTER TABLE games ADD COLUMN creator_token BLOB;

-- The takeover loop reads only games whose bot is to move.
CREATE INDEX games_bot_due ON games (bot_due_ms) WHERE bot_due_ms IS NOT NULL;
-- Counting the live games with a bot seat (the deployment's cap) reads only those.
CREATE INDEX games_live_bots ON games (id)
    WHERE NOT finished AND (white_bot IS NOT NULL OR black_bot IS NOT NULL);
-- 401 or 403 for a token: one probe per token column (as 0003).
CREATE INDEX games_creator_token ON games (creator_token);
