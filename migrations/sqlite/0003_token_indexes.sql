-- A request refused for its token asks whether the token was ever issued (401 or 403): one
-- indexed lookup per token column instead of a scan of every game and lab.
CREATE INDEX games_white_token ON games (white_token);
CREATE INDEX games_black_token ON games (black_token);
CREATE INDEX labs_token ON labs (token);
