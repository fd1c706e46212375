-- A ply's row no longer checks that its game exists (issue 36): the check was a trigger run for
-- every ply inserted, a lookup and a row lock on the game that the same statement had just
-- updated, and the batches of moves (crates/store/src/batch.rs) insert a ply only for a game row
-- they updated. Games are never deleted, so nothing can leave a ply without its game. Measured
-- with the load benchmark's games driven at one server (docs/performance.md): some 9–22 % more
-- moves a second without it. SQLite keeps its check: there it is a lookup in the same process.
ALTER TABLE plies DROP CONSTRAINT plies_game_id_fkey;
