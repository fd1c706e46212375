-- Live games to watch (issue 26): the games in progress, the most recently changed first.
CREATE INDEX games_in_progress ON games (updated_at) WHERE status = 'in_progress';
