-- What genomes are worth (docs/workbench.md, "Piece value"; docs/api.md): one evaluation per
-- genome, kept with it, so that each code is evaluated once. `games` are asked for; `wins`,
-- `draws` and `losses` (of the side carrying the genome) count those played so far. `state` is
-- queued, running, done or failed (`error` says why). A running evaluation is leased to a process
-- (`holder` until `lease_ms`); when the lease runs out, any process takes it over and goes on from
-- the games already counted (every game is determined by the evaluation's seed and its number).
CREATE TABLE genome_values (
    code        TEXT PRIMARY KEY REFERENCES genomes (code),
    replaced    TEXT NOT NULL,
    bot         TEXT NOT NULL,
    seed        INTEGER NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL DEFAULT 0,
    draws       INTEGER NOT NULL DEFAULT 0,
    losses      INTEGER NOT NULL DEFAULT 0,
    state       TEXT NOT NULL,
    error       TEXT,
    holder      TEXT,
    lease_ms    INTEGER,
    queued_ms   INTEGER NOT NULL,
    finished_ms INTEGER
);

-- The claim reads evaluations not finished, oldest first; the caps count them.
CREATE INDEX genome_values_open ON genome_values (queued_ms)
    WHERE state IN ('queued', 'running');
