-- When each seat's holder last had the game open (issue 22: "your opponent left", and a claim of
-- victory after a minute without them, as on lichess): a seat's stream pulses its row every few
-- seconds while it is open. Apart from `games`, so that a pulse never touches the row a move
-- updates; deleted with its game.
CREATE TABLE seat_presence (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    color   TEXT NOT NULL,
    seen_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, color)
);
