//! How a game changes: every state change is load → engine call with `now` → `store.apply` at the
//! loaded version (one transaction) → announce. Changes of one game are serialised in this
//! process by a per-game lock, and across processes by the version check: the loser of a race
//! gets 409 and nothing changes.

mod errors;
mod locks;
mod plies;
mod seats;

pub use errors::{game_error, lab_error};
pub use locks::Locks;
pub use plies::{move_plies, promotion_plies};
pub use seats::{seat_of, viewer_of_token, wrong_token};

use crate::app::AppState;
use crate::error::{ApiError, ApiResult};
use crate::hub::{PlyViews, Update};
use crate::metrics::Metrics;
use crate::time::now_ms;
use gmo_engine::{Color, Event, Game, GameStatus};
use gmo_store::Change;
use std::sync::Arc;

/// A stored game: the engine's snapshot plus the store's bookkeeping.
pub type Stored = gmo_store::Game<Game>;

/// What an engine call did, beyond its answer: the stream lines it makes and its ply as each
/// viewer may see it.
#[derive(Debug, Default)]
pub struct Acted<T> {
    pub answer: T,
    pub kinds: Vec<&'static str>,
    pub ply: PlyViews,
}

/// A committed change.
#[derive(Debug)]
pub struct Changed<T> {
    pub seat: Color,
    pub game: Arc<Game>,
    pub answer: T,
    pub now: i64,
}

/// Runs `op` for the seat holding `token` on game `id` and commits what it did. A refused op
/// changes nothing, except that a clock found fallen on the way ends the game (and that is
/// committed and announced too).
pub async fn change<T>(
    state: &AppState,
    id: &str,
    token: &str,
    op: impl FnOnce(&mut Game, Color, i64) -> ApiResult<Acted<T>>,
) -> ApiResult<Changed<T>> {
    change_by(state, id, Actor::Token(token), op).await
}

/// Runs `op` for the bot whose turn it is on game `id` (409 when no bot is to move).
pub async fn change_as_bot<T>(
    state: &AppState,
    id: &str,
    op: impl FnOnce(&mut Game, Color, i64) -> ApiResult<Acted<T>>,
) -> ApiResult<Changed<T>> {
    change_by(state, id, Actor::Bot, op).await
}

/// Who asks for a change.
enum Actor<'a> {
    Token(&'a str),
    /// The bot of the side to move.
    Bot,
}

async fn change_by<T>(
    state: &AppState,
    id: &str,
    actor: Actor<'_>,
    op: impl FnOnce(&mut Game, Color, i64) -> ApiResult<Acted<T>>,
) -> ApiResult<Changed<T>> {
    let _turn = state.locks.lock(id).await;
    let stored: Stored = state.store.load_game(id).await?;
    let seat = match actor {
        Actor::Token(token) => seat_of(state, &stored, token).await?,
        Actor::Bot => bot_to_move(&stored)?,
    };
    let now = now_ms();
    let mut game = stored.state.clone();
    match op(&mut game, seat, now) {
        Ok(acted) => {
            let game = commit(state, &stored, game, acted.kinds, acted.ply).await?;
            Ok(Changed {
                seat,
                game,
                answer: acted.answer,
                now,
            })
        }
        Err(refusal) => {
            if game.is_over() && !stored.state.is_over() {
                commit(state, &stored, game, vec!["end"], PlyViews::default()).await?;
            }
            Err(refusal)
        }
    }
}

/// The side to move, if a bot holds its seat.
fn bot_to_move(stored: &Stored) -> ApiResult<Color> {
    let settings = &stored.settings;
    match stored.state.to_move() {
        Some(Color::White) if settings.white_bot.is_some() => Ok(Color::White),
        Some(Color::Black) if settings.black_bot.is_some() => Ok(Color::Black),
        _ => Err(ApiError::conflict("not_bot_turn", "no bot is to move")),
    }
}

/// Ends game `id` on time if its clock has fallen by now; used by the per-game timers.
pub async fn flag(state: &AppState, id: &str) -> ApiResult<()> {
    let _turn = state.locks.lock(id).await;
    let stored: Stored = state.store.load_game(id).await?;
    let mut game = stored.state.clone();
    if game.tick(now_ms()) {
        commit(state, &stored, game, vec!["end"], PlyViews::default()).await?;
    }
    Ok(())
}

/// Writes `game` over `stored` (version-checked) and announces it.
async fn commit(
    state: &AppState,
    stored: &Stored,
    game: Game,
    kinds: Vec<&'static str>,
    ply: PlyViews,
) -> ApiResult<Arc<Game>> {
    let event = game
        .events()
        .get(stored.state.events().len()..)
        .and_then(<[Event]>::last);
    let change = change_of(&game, event.cloned());
    let version = state
        .store
        .apply(&stored.id, stored.version, &change)
        .await?;
    let game = Arc::new(game);
    let kinds = kinds.into_iter().map(str::to_owned).collect();
    announce(
        state,
        &stored.id,
        &stored.state,
        Update {
            version,
            kinds,
            ply,
            game: game.clone(),
        },
    );
    Ok(game)
}

/// What the store writes for a game in this state.
pub fn change_of(game: &Game, ply: Option<Event>) -> Change<Event, &Game> {
    Change {
        ply,
        state: game,
        status: game.status().name().to_owned(),
        deadline_ms: game.deadline_ms(),
        finished: game.is_over(),
    }
}

/// After a commit: count it, hand it to this process's streams and to other processes, and
/// (re)arm the game's flag timer.
pub fn announce(state: &AppState, id: &str, before: &Game, update: Update) {
    count(&state.metrics, before, &update.game);
    publish(state, id, update);
}

/// Re-arms the game's flag timer and hands the update to this process's streams and to other
/// processes.
pub fn publish(state: &AppState, id: &str, update: Update) {
    state.timers.arm(state, id, update.game.deadline_ms());
    state.listener.notify(id, &update);
    state.hub.publish(id, update);
}

fn count(metrics: &Metrics, before: &Game, after: &Game) {
    if after.moves_played() > before.moves_played() {
        Metrics::bump(&metrics.moves);
    }
    if before.status() == GameStatus::Setup && after.status() != GameStatus::Setup {
        Metrics::bump(&metrics.games_started);
    }
    if after.is_over() && !before.is_over() {
        Metrics::bump(&metrics.games_ended);
    }
}

/// Loads a game for reading, turning a missing one into 404.
pub async fn load(state: &AppState, id: &str) -> ApiResult<Stored> {
    Ok(state.store.load_game(id).await?)
}

/// Refuses a request that needs the game to be over.
pub fn require_over(game: &Game) -> ApiResult<()> {
    if game.is_over() {
        Ok(())
    } else {
        Err(ApiError::conflict(
            "not_over",
            format!(
                "the record is open once the game is over; it is {}",
                game.status().name()
            ),
        ))
    }
}
