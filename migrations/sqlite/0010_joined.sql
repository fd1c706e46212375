-- Whether each seat's holder has opened the game (issue 12: "the white player sees when the
-- friend has opened the invite"; docs/service.md, "A game view"): set once, the first time a
-- request with that seat's token reads the game or acts on it, and never cleared. Kept apart from
-- `version`, so that a seat opening the game never makes another request's change stale.
ALTER TABLE games ADD COLUMN white_joined INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_joined INTEGER NOT NULL DEFAULT 0;
