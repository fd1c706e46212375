-- The live list (issue 26) without an index on a column every move changes (issue 36): 0016's
-- index on `updated_at` meant that no update of `games` could be HOT (each move wrote a new
-- entry in every index of the table: 0 % HOT and 1,312 WAL bytes a ply, against 100 % and some
-- 745 before it). This one holds the games in progress by their id, which never changes; the
-- list (GET /api/games?status=in_progress, TV) sorts those few rows by `updated_at` itself.
DROP INDEX games_in_progress;
CREATE INDEX games_in_progress ON games (id) WHERE status = 'in_progress';
