//! A new game, as every way of making one makes it (a creation, the lobby's pairings, a
//! rematch): the settings checked, the engine's game set up for its bot seats, the row it is
//! stored as, and what follows its commit.

use super::Games;
use crate::bot_seats;
use crate::error::PlayResult;
use crate::stored::row_state;
use crate::time::now;
use gmo_engine::{Game, GameSnapshot, Settings};
use gmo_store::{BotTurn, GameSettings, Joined, NewGame};
use gmo_types::{ByColor, GameId, Millis};

/// The engine's settings for a board, a clock (`(initial, increment)`) and each side's time for
/// its first move, defaults filled in; a size or a clock out of range is refused.
pub fn settings_of(
    width: Option<u8>,
    height: Option<u8>,
    clock: Option<(Millis, Option<Millis>)>,
    first_move: Millis,
) -> PlayResult<Settings> {
    let defaults = Settings::default();
    let (initial, increment) = clock.map_or(
        (defaults.initial_ms, Millis::ZERO),
        |(initial, increment)| (initial, increment.unwrap_or(Millis::ZERO)),
    );
    let settings = Settings::new(
        width.unwrap_or(defaults.width),
        height.unwrap_or(defaults.height),
        initial,
    )?;
    Ok(settings
        .with_increment(increment)?
        .with_first_move(Some(first_move))?)
}

/// A game about to be stored.
#[derive(Debug)]
pub struct NewSetUp {
    pub game: Game,
    pub settings: GameSettings,
    pub snapshot: GameSnapshot,
}

impl NewSetUp {
    /// A game in setup (or, between two bots, started) on `settings`; a seat named by a bot spec
    /// is the bot's. A game with a bot seat has no first-move timer (rules §5.4): nobody waits on
    /// a bot's opponent, so a person reading before the first move spends their own clock, and a
    /// game left alone still ends by the flag and frees its bot.
    pub fn new(
        settings: Settings,
        white_bot: Option<String>,
        black_bot: Option<String>,
    ) -> PlayResult<NewSetUp> {
        let settings = if white_bot.is_some() || black_bot.is_some() {
            settings.with_first_move(None)?
        } else {
            settings
        };
        let mut game = Game::new(settings, rand::random())?;
        bot_seats::set_up(&mut game, white_bot.is_some(), black_bot.is_some(), now())?;
        let settings = GameSettings {
            width: settings.width.into(),
            height: settings.height.into(),
            clock_initial: settings.initial_ms,
            white_bot,
            black_bot,
        };
        let snapshot = row_state(&game);
        Ok(NewSetUp {
            game,
            settings,
            snapshot,
        })
    }

    /// The row to store, with the seats' token hashes (none for a bot's seat).
    pub fn row(
        &self,
        white_token: Option<[u8; 32]>,
        black_token: Option<[u8; 32]>,
        bot_turn: Option<BotTurn>,
        creator_token: Option<[u8; 32]>,
    ) -> NewGame<'_, GameSnapshot> {
        NewGame {
            settings: &self.settings,
            white_token,
            black_token,
            status: self.game.status(),
            state: &self.snapshot,
            deadline: self.game.deadline(),
            bot_turn,
            creator_token,
            accounts: ByColor::new(None, None),
            rated: false,
            created: now(),
        }
    }
}

/// What a new game is asked for with.
#[derive(Debug, Clone, Default)]
pub struct NewGameRequest {
    pub width: Option<u8>,
    pub height: Option<u8>,
    /// Each side's time and the increment (none: the default clock).
    pub clock: Option<(Millis, Option<Millis>)>,
    /// `bot:<spec>` for a seat a bot plays.
    pub white: Option<String>,
    pub black: Option<String>,
}

/// A game just made, with the secrets shown once.
#[derive(Debug)]
pub struct Created {
    pub id: GameId,
    pub game: Game,
    /// Each seat's token; none for a bot's seat.
    pub white_token: Option<String>,
    pub black_token: Option<String>,
    /// For a game between two bots, the token that stops it.
    pub creator_token: Option<String>,
    /// Which seats are taken: only bots' seats, nobody has opened the game yet.
    pub joined: Joined,
}

impl Games {
    /// Makes a game as `request` asks: a person's seat gets a token; a game between two bots has
    /// started already (its clock runs, its bot is to move) and its creator gets a token to stop
    /// it.
    pub async fn create(&self, request: NewGameRequest) -> PlayResult<Created> {
        let settings = settings_of(
            request.width,
            request.height,
            request.clock,
            self.first_move,
        )?
        .with_discovery(self.discovery);
        let white_bot = bot_seats::spec_of(request.white.as_deref(), "white")?;
        let black_bot = bot_seats::spec_of(request.black.as_deref(), "black")?;
        let between_bots = white_bot.is_some() && black_bot.is_some();
        if between_bots {
            bot_seats::check_clock(settings.initial_ms)?;
        }
        let token = |bot: &Option<String>| bot.is_none().then(gmo_store::new_token);
        let (white_token, black_token) = (token(&white_bot), token(&black_bot));
        let creator_token = between_bots.then(gmo_store::new_token);
        let fresh = NewSetUp::new(settings, white_bot, black_bot)?;
        let bot_turn = bot_seats::turn(&fresh.settings, &fresh.game, now(), &self.instance);
        let hash = |token: &Option<String>| token.as_deref().map(gmo_store::token_hash);
        let row = fresh.row(
            hash(&white_token),
            hash(&black_token),
            bot_turn.clone(),
            hash(&creator_token),
        );
        let id = self
            .store
            .create_game_within(&row, self.max_bot_games)
            .await?
            .ok_or_else(|| bot_seats::full(self.max_bot_games))?;
        self.created(&id, &fresh, bot_turn.as_ref());
        Ok(Created {
            joined: Joined::new(white_token.is_none(), black_token.is_none()),
            id,
            game: fresh.game,
            white_token,
            black_token,
            creator_token,
        })
    }

    /// After game `id` committed as `new`: count it, arm its flag timer, wake its bot.
    pub(crate) fn created(&self, id: &GameId, new: &NewSetUp, bot_turn: Option<&BotTurn>) {
        self.metrics.games_created.inc();
        let deadline = new.game.deadline();
        self.arm_flag(id, deadline);
        if let Some(turn) = bot_turn {
            self.wake_bot(id, turn);
        }
    }

    /// The most live games with a bot seat in the deployment.
    pub fn max_bot_games(&self) -> u32 {
        self.max_bot_games
    }

    /// Each side's time for its first move in the games made here.
    pub fn first_move(&self) -> Millis {
        self.first_move
    }

    /// Whether the games made here keep the genome language secret (`--discovery`).
    pub fn discovery(&self) -> bool {
        self.discovery
    }
}
