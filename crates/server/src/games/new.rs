//! A new game, as every way of creating one makes it (`POST /api/games`, the lobby's pairings):
//! the settings checked, the engine's game set up for its bot seats, the row it is stored as, and
//! what follows its commit.

use crate::app::AppState;
use crate::error::ApiResult;
use crate::games::{game_error, row_state};
use crate::metrics::Metrics;
use crate::time::now_ms;
use gmo_engine::{Game, GameSnapshot, Settings};
use gmo_store::{BotTurn, GameSettings, NewGame};

/// The engine's settings for a board and a clock (`(initial_ms, increment_ms)`), defaults
/// filled in → 422 for a size or a clock out of range.
pub fn settings_of(
    width: Option<u8>,
    height: Option<u8>,
    clock: Option<(i64, Option<i64>)>,
) -> ApiResult<Settings> {
    let defaults = Settings::default();
    let (initial_ms, increment_ms) = clock.map_or((defaults.initial_ms, 0), |(initial, inc)| {
        (initial, inc.unwrap_or(0))
    });
    Settings::new(
        width.unwrap_or(defaults.width),
        height.unwrap_or(defaults.height),
        initial_ms,
    )
    .and_then(|settings| settings.with_increment(increment_ms))
    .map_err(game_error)
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
    /// is the bot's.
    pub fn new(
        settings: Settings,
        white_bot: Option<String>,
        black_bot: Option<String>,
    ) -> ApiResult<NewSetUp> {
        let mut game = Game::new(settings, rand::random()).map_err(game_error)?;
        crate::bot::set_up(
            &mut game,
            white_bot.is_some(),
            black_bot.is_some(),
            now_ms(),
        )?;
        let settings = GameSettings {
            width: settings.width.into(),
            height: settings.height.into(),
            clock_initial_ms: settings.initial_ms,
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
            deadline_ms: self.game.deadline_ms(),
            bot_turn,
            creator_token,
        }
    }

    /// After game `id` committed: count it, arm its flag timer, wake its bot.
    pub fn stored(&self, state: &AppState, id: &str, bot_turn: Option<&BotTurn>) {
        Metrics::bump(&state.metrics.games_created);
        state.timers.arm(state, id, self.game.deadline_ms());
        if let Some(turn) = bot_turn {
            crate::bot::wake(state, id, turn);
        }
    }
}
