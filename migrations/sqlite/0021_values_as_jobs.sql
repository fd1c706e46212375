-- Genome value evaluations become jobs of kind 'value' (issue 35: heavy work is one queue that any
-- process, `gmo work` included, takes): subject the genome's code, `done` of `total` the games
-- counted of those asked for, `result` the evaluation's parameters and counts as JSON
-- ({"replaced", "bot", "seed", "games", "wins", "draws", "losses"}). Running evaluations keep
-- their holder and lease, so a process of the old version's work is taken over as before.
INSERT INTO jobs (kind, subject, asker, state, done, total, result, error, holder, lease_ms,
                  created_ms, finished_ms)
SELECT 'value', code, '', state, wins + draws + losses, games,
       json_object('replaced', replaced, 'bot', bot, 'seed', seed, 'games', games,
                   'wins', wins, 'draws', draws, 'losses', losses),
       error, holder, lease_ms, queued_ms, finished_ms
FROM genome_values;

DROP TABLE genome_values;
