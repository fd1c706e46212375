-- Moves write their ply and a few columns, not the whole state (issue 11; docs/architecture.md,
-- "A move's write"). `state` is now a snapshot after the first `state_plies` plies of the record:
-- the server writes it on every change that is not a ply, at the end, and every 32 plies; the game
-- is the snapshot plus the plies since. Existing rows hold the state after all their plies.
ALTER TABLE games ADD COLUMN state_plies BIGINT NOT NULL DEFAULT 0;
UPDATE games SET state_plies = plies;

-- A move then changes no indexed column, so PostgreSQL can update the row in place (a HOT update:
-- no new index entries, less WAL): room is left in each page for the new version of its rows, and
-- the state (kilobytes) is kept out of line in TOAST, where an update that leaves it alone copies
-- only its pointer.
ALTER TABLE games SET (fillfactor = 80, toast_tuple_target = 256);

-- The expiry sweep's index was on `deadline_ms`, which every move changes (no HOT update then).
-- It reads the unfinished games instead (a bounded set), and takes the fallen ones among them.
DROP INDEX games_deadline;
CREATE INDEX games_live ON games (id) WHERE NOT finished;
