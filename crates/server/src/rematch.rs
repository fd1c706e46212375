//! Rematches: after the end each seat may ask for one (a bot's seat asks at once); when both
//! have, one new game starts with the same settings and the colours swapped. The state lives in
//! the database (`gmo_store::Rematch`), so any process answers any ask, and the store creates the
//! game exactly once. Each seat's token in the new game is derived from its token in this one
//! (`gmo_store::rematch_token`): the seat's own stream can show it, nobody else can know it.

use crate::app::AppState;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ServiceCode;
use crate::games::{self, Stored, game_error};
use crate::hub::{LineType, PlyViews, RematchNews, Update};
use crate::metrics::Metrics;
use crate::time::now_ms;
use gmo_engine::{Color, Game, Settings};
use gmo_store::{GameSettings, NewGame, Rematch, RematchAsk, rematch_token, token_hash};
use serde::Serialize;
use utoipa::ToSchema;

/// The answer to a rematch request.
#[derive(Debug, Serialize, ToSchema)]
pub struct RematchView {
    /// Which seats have asked (a bot's seat asks at once).
    pub asked: RematchAsked,
    /// The new game, once both asked; `null` before.
    #[schema(value_type = Option<crate::schema::Id>)]
    pub game: Option<String>,
    /// The caller's token in the new game (its seat there is the other colour); `null` before.
    #[schema(value_type = Option<crate::schema::Token>)]
    pub token: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RematchAsked {
    pub white: bool,
    pub black: bool,
}

/// The seat holding `token` on finished game `id` asks for a rematch → where it stands.
pub async fn ask(state: &AppState, id: &str, token: &str) -> ApiResult<RematchView> {
    let stored = games::load(state, id).await?;
    let seat = games::seat_of(state, &stored, token).await?;
    if !stored.state.is_over() {
        return Err(ApiError::conflict(
            ServiceCode::NotOver,
            format!(
                "a rematch can be asked once the game is over; it is {}",
                stored.state.status().name()
            ),
        ));
    }
    let next = token_hash(&rematch_token(token, id));
    let bots = &stored.settings;
    let ask = RematchAsk {
        white: seat == Color::White || bots.white_bot.is_some(),
        black: seat == Color::Black || bots.black_bot.is_some(),
        white_next: (seat == Color::White).then_some(next),
        black_next: (seat == Color::Black).then_some(next),
    };
    let before = state.store.rematch(id).await?;
    let mut rematch = state.store.ask_rematch(id, &ask).await?;
    if rematch.game.is_none() && rematch.white && rematch.black {
        let (game, created) = start(state, &stored, &rematch).await?;
        if created {
            announce(state, &stored, RematchNews::Started(game.clone()));
        }
        rematch.game = Some(game);
    } else if !asked(&before, seat) {
        announce(state, &stored, RematchNews::Asked(seat));
    }
    Ok(RematchView {
        asked: RematchAsked {
            white: rematch.white,
            black: rematch.black,
        },
        token: rematch.game.as_ref().map(|_| rematch_token(token, id)),
        game: rematch.game,
    })
}

fn asked(rematch: &Rematch, seat: Color) -> bool {
    match seat {
        Color::White => rematch.white,
        Color::Black => rematch.black,
    }
}

/// Creates the new game (or finds the one another request created) → (its id, whether this
/// call created it).
async fn start(state: &AppState, stored: &Stored, rematch: &Rematch) -> ApiResult<(String, bool)> {
    let old = stored.state.settings();
    let settings = Settings::new(old.width, old.height, old.initial_ms)
        .and_then(|settings| settings.with_increment(old.increment_ms))
        .map_err(game_error)?;
    // Colours swap: White's seat (and bot) plays Black now, and the other way round.
    let stored_settings = GameSettings {
        white_bot: stored.settings.black_bot.clone(),
        black_bot: stored.settings.white_bot.clone(),
        ..stored.settings.clone()
    };
    let mut game = Game::new(settings, rand::random()).map_err(game_error)?;
    let (bot_white, bot_black) = (
        stored_settings.white_bot.is_some(),
        stored_settings.black_bot.is_some(),
    );
    crate::bot::set_up(&mut game, bot_white, bot_black, now_ms())?;
    let new = NewGame {
        settings: &stored_settings,
        white_token: rematch.black_next,
        black_token: rematch.white_next,
        status: game.status(),
        state: &games::row_state(&game),
        deadline_ms: game.deadline_ms(),
        bot_turn: None,
        creator_token: None,
    };
    let started = state
        .store
        .start_rematch(&stored.id, &new, state.config.max_bot_games)
        .await?
        .ok_or_else(|| crate::bot::full(state.config.max_bot_games))?;
    if started.1 {
        Metrics::bump(&state.metrics.games_created);
    }
    Ok(started)
}

/// Tells the finished game's streams, here and in other processes.
fn announce(state: &AppState, stored: &Stored, news: RematchNews) {
    let kind = match news {
        RematchNews::Asked(_) => LineType::RematchOffer,
        RematchNews::Started(_) => LineType::Rematch,
    };
    let update = Update {
        version: stored.version,
        kinds: vec![kind],
        ply: PlyViews::default(),
        game: stored.state.clone(),
        rematch: Some(news),
        joined: games::joined(stored),
    };
    games::publish(state, &stored.id, update);
}
