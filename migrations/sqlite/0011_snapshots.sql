-- Moves write their ply and a few columns, not the whole state (issue 11; docs/architecture.md,
-- "A move's write"). `state` is now a snapshot after the first `state_plies` plies of the record:
-- the server writes it on every change that is not a ply, at the end, and every 32 plies; the game
-- is the snapshot plus the plies since. Existing rows hold the state after all their plies.
ALTER TABLE games ADD COLUMN state_plies INTEGER NOT NULL DEFAULT 0;
UPDATE games SET state_plies = plies;
