-- Rematches (issue 12; docs/service.md, "Rematch"). One row per finished game a seat asked a
-- rematch of: which seats asked (a bot's seat asks at once), the SHA-256 of each asking seat's
-- token in the new game (derived from its token in this game, so only that seat can know it),
-- and the new game once both asked. `new_game` is set exactly once, in the transaction that
-- creates that game, so two processes answering both asks at once create one game.
CREATE TABLE rematches (
    game_id     TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    white_asked BOOLEAN NOT NULL DEFAULT FALSE,
    black_asked BOOLEAN NOT NULL DEFAULT FALSE,
    white_next  BLOB,
    black_next  BLOB,
    new_game    TEXT
);
