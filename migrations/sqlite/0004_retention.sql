-- Retention (docs/operations.md, "Retention"): the sweep deletes games never started after a day
-- and labs untouched for 30 days, oldest first, in batches. These indexes let it find them
-- without reading the games that were played or the labs in use.
CREATE INDEX games_unstarted ON games (created_at) WHERE status = 'setup';
CREATE INDEX labs_untouched ON labs (updated_at);
