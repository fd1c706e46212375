-- Heavy work as jobs any process takes (docs/service.md, "Jobs"; issue 35): the analysis of a
-- finished game (kind 'analysis', subject: the game's id) for now. One job per kind and subject,
-- so that each is computed once. `state` is queued, running, done or failed (`error` says why).
-- A running job is leased to a process (`holder` until `lease_ms`), which renews the lease as it
-- works and saves its progress (`done` of `total`, and `result` so far, JSON); when the lease
-- runs out any process takes the job over and goes on from the saved progress. `asker` is the
-- address that asked, for the queue's bound per address.
CREATE TABLE jobs (
    id          BIGSERIAL PRIMARY KEY,
    kind        TEXT NOT NULL,
    subject     TEXT NOT NULL,
    asker       TEXT NOT NULL,
    state       TEXT NOT NULL,
    done        BIGINT NOT NULL DEFAULT 0,
    total       BIGINT NOT NULL DEFAULT 0,
    result      TEXT,
    error       TEXT,
    holder      TEXT,
    lease_ms    BIGINT,
    created_ms  BIGINT NOT NULL,
    finished_ms BIGINT,
    UNIQUE (kind, subject)
);

-- Taking reads the open jobs of a kind, oldest first; the queue's bounds count them.
CREATE INDEX jobs_open ON jobs (kind, created_ms) WHERE state IN ('queued', 'running');
