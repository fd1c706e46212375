-- The piece library (issue 34; docs/library.md): designs published by accounts under a name.
-- An entry names a stored genome or preset by its code; withdrawing or hiding it takes it out of
-- search and pages, never out of the store (its code keeps working everywhere). `name_key` is
-- the name's lower case: unique per author among live (not withdrawn) entries. `features` are
-- bits computed from the genome at publication (1 leaps, 2 slides, 4 wraps, 8 leaves copies,
-- 16 has a debuff) so that search filters on them; `value` is the strength estimate in pawns
-- once its evaluation is done. `games`/`wins` count finished games in which a side fielded it,
-- and those that side won.
CREATE TABLE library_entries (
    id          TEXT PRIMARY KEY,
    kind        TEXT NOT NULL,
    code        TEXT NOT NULL,
    name        TEXT NOT NULL,
    name_key    TEXT NOT NULL,
    description TEXT NOT NULL,
    author      TEXT NOT NULL REFERENCES accounts (id),
    created_ms  BIGINT NOT NULL,
    withdrawn   BOOLEAN NOT NULL DEFAULT FALSE,
    hidden      BOOLEAN NOT NULL DEFAULT FALSE,
    features    BIGINT NOT NULL,
    value       DOUBLE PRECISION,
    games       BIGINT NOT NULL DEFAULT 0,
    wins        BIGINT NOT NULL DEFAULT 0,
    stars       BIGINT NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX library_entries_name ON library_entries (author, name_key)
    WHERE NOT withdrawn;
-- Games count entries by code; lineage finds children by code.
CREATE INDEX library_entries_code ON library_entries (code);
-- One index per sort order over the entries search shows; the id breaks ties (stable pages).
CREATE INDEX library_entries_new ON library_entries (created_ms, id)
    WHERE NOT withdrawn AND NOT hidden;
CREATE INDEX library_entries_popular ON library_entries (games, id)
    WHERE NOT withdrawn AND NOT hidden;
CREATE INDEX library_entries_stars ON library_entries (stars, id)
    WHERE NOT withdrawn AND NOT hidden;
CREATE INDEX library_entries_value ON library_entries (value, id)
    WHERE NOT withdrawn AND NOT hidden;
CREATE INDEX library_entries_author ON library_entries (author, created_ms);

-- The words of an entry's name and description, lower case, for text search: a query word
-- matches the words it begins (a range scan of the index, the same on both databases).
CREATE TABLE library_words (
    word  TEXT COLLATE "C" NOT NULL,
    entry TEXT NOT NULL REFERENCES library_entries (id) ON DELETE CASCADE,
    PRIMARY KEY (word, entry)
);
-- Search probes an entry's words as it walks entries in the order asked for.
CREATE INDEX library_words_entry ON library_words (entry, word);

-- Who starred what: one star per account and entry.
CREATE TABLE library_stars (
    entry      TEXT NOT NULL REFERENCES library_entries (id) ON DELETE CASCADE,
    account    TEXT NOT NULL REFERENCES accounts (id),
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (entry, account)
);

-- Games already counted for the library, so that a game's end counts once whichever process
-- ends it.
CREATE TABLE library_counted (
    game       TEXT PRIMARY KEY,
    counted_ms BIGINT NOT NULL
);

-- The parents a genome was bred from (the first breeding that made it): the library's lineage.
CREATE TABLE genome_parents (
    child TEXT PRIMARY KEY REFERENCES genomes (code),
    a     TEXT NOT NULL REFERENCES genomes (code),
    b     TEXT NOT NULL REFERENCES genomes (code)
);
CREATE INDEX genome_parents_a ON genome_parents (a);
CREATE INDEX genome_parents_b ON genome_parents (b);
