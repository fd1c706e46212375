//! How a game changes: every state change is load → engine call with `now` → `store.apply` at the
//! loaded version (one transaction) → announce. Changes of one game are serialised in this
//! process by a per-game lock, and across processes by the version check: the loser of a race
//! gets 409 and nothing changes.

mod cache;
mod errors;
mod locks;
mod new;
mod plies;
mod row;
mod seats;

pub use cache::Cache;
pub use errors::{game_error, lab_error};
pub use locks::Locks;
pub use new::{NewSetUp, settings_of};
pub use plies::{move_plies, promotion_plies};
use row::snapshot_due;
pub use row::{current_from, decode_from, load, row_state};
pub use seats::{seat_of, viewer_of_token, wrong_token};

use crate::app::AppState;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ServiceCode;
use crate::hub::{LineType, PlyViews, Update};
use crate::metrics::Metrics;
use crate::time::now_ms;
use gmo_engine::{Color, Event, Game, GameSnapshot, GameStatus, MovePly};
use gmo_genome::Genome;
use gmo_store::{BotTurn, Change, Joined, StoreError};
use std::sync::Arc;

/// A stored game: the engine's state (decoded once, shared) plus the store's bookkeeping.
pub type Stored = gmo_store::Game<Arc<Game>>;

/// What an engine call did, beyond its answer: the stream lines it makes and its ply as each
/// viewer may see it.
#[derive(Debug, Default)]
pub struct Acted<T> {
    pub answer: T,
    pub kinds: Vec<LineType>,
    pub ply: PlyViews,
}

/// A committed change.
#[derive(Debug)]
pub struct Changed<T> {
    pub seat: Color,
    pub game: Arc<Game>,
    pub answer: T,
    pub now: i64,
    /// Which seats are taken, as far as this process knows ([`joined`]).
    pub joined: Joined,
}

/// Which seats of a stored game are taken: those whose holder has opened the game with its token,
/// and every bot's seat.
pub fn joined<S>(stored: &gmo_store::Game<S>) -> Joined {
    let bots = Joined::new(
        stored.settings.white_bot.is_some(),
        stored.settings.black_bot.is_some(),
    );
    stored.joined.union(bots)
}

/// Runs `op` for the seat holding `token` on game `id` and commits what it did. A refused op
/// changes nothing, except that a clock found fallen on the way ends the game (and that is
/// committed and announced too).
pub async fn change<T>(
    state: &AppState,
    id: &str,
    token: &str,
    op: impl Fn(&mut Game, Color, i64) -> ApiResult<Acted<T>>,
) -> ApiResult<Changed<T>> {
    change_by(state, id, Actor::Token(token), op).await
}

/// Runs `op` for the bot whose turn it is on game `id`, which it saw at `version` (409 when no
/// bot is to move, or the game moved on since).
pub async fn change_as_bot<T>(
    state: &AppState,
    id: &str,
    version: i64,
    op: impl Fn(&mut Game, Color, i64) -> ApiResult<Acted<T>>,
) -> ApiResult<Changed<T>> {
    change_by(state, id, Actor::Bot(version), op).await
}

/// Stops game `id` for its creator, whose token is `token` (a game between bots).
pub async fn stop_as_creator(state: &AppState, id: &str, token: &str) -> ApiResult<Changed<()>> {
    change_by(state, id, Actor::Creator(token), |game, _, now| {
        game.stop(now).map_err(game_error)?;
        Ok(Acted {
            answer: (),
            kinds: vec![LineType::End],
            ply: PlyViews::default(),
        })
    })
    .await
}

/// Whether `token` is the creator's token of game `id` (404 when there is no such game).
pub async fn is_creator(state: &AppState, id: &str, token: &str) -> ApiResult<bool> {
    Ok(load(state, id).await?.created_by(token))
}

/// Who asks for a change.
enum Actor<'a> {
    Token(&'a str),
    /// The bot of the side to move, on the game at this version.
    Bot(i64),
    /// The creator of a game between bots (the op gets the side to move, or White).
    Creator(&'a str),
}

async fn change_by<T>(
    state: &AppState,
    id: &str,
    actor: Actor<'_>,
    op: impl Fn(&mut Game, Color, i64) -> ApiResult<Acted<T>>,
) -> ApiResult<Changed<T>> {
    let _turn = state.locks.lock(id).await;
    // First on the game as this process last committed it, without reading the database: the
    // version check of the commit (or, for a refusal, one read of the version) finds out if
    // another process moved the game on, and then the change runs once more on a fresh load.
    if let Some(cached) = state.cache.latest(id) {
        match attempt(state, &cached, &actor, &op, Fresh::No).await {
            Attempt::Done(result) => return result,
            Attempt::Outdated => state.cache.forget(id),
        }
    }
    let stored = load(state, id).await?;
    match attempt(state, &stored, &actor, &op, Fresh::Yes).await {
        Attempt::Done(result) => result,
        // A lost race with another process: 409, nothing changed.
        Attempt::Outdated => Err(ApiError::conflict(
            ServiceCode::Conflict,
            "another request changed this first; reload and try again",
        )),
    }
}

/// Whether a game was just read from the database, or may be behind it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fresh {
    Yes,
    No,
}

enum Attempt<T> {
    Done(ApiResult<Changed<T>>),
    /// The game was not the stored one: nothing changed.
    Outdated,
}

async fn attempt<T>(
    state: &AppState,
    stored: &Stored,
    actor: &Actor<'_>,
    op: &impl Fn(&mut Game, Color, i64) -> ApiResult<Acted<T>>,
    fresh: Fresh,
) -> Attempt<T> {
    // Tokens never change, so a refused token needs no fresh read.
    let seat = match actor {
        Actor::Token(token) => seat_of(state, stored, token).await,
        Actor::Bot(version) if *version == stored.version => bot_to_move(stored),
        Actor::Bot(_) => Err(ApiError::conflict(
            ServiceCode::MovedOn,
            "the game changed while the bot thought",
        )),
        Actor::Creator(token) if stored.created_by(token) => {
            Ok(stored.state.to_move().unwrap_or(Color::White))
        }
        Actor::Creator(token) => Err(wrong_token(state, token, "this game").await),
    };
    let now = now_ms();
    let mut game = Game::clone(&stored.state);
    let done = match seat.and_then(|seat| op(&mut game, seat, now).map(|acted| (seat, acted))) {
        Ok((seat, acted)) => commit(state, stored, game, acted.kinds, acted.ply)
            .await
            .map(|game| Changed {
                seat,
                game,
                answer: acted.answer,
                now,
                joined: joined(stored),
            }),
        Err(refusal) => {
            if fresh == Fresh::No && !current(state, stored).await {
                return Attempt::Outdated;
            }
            if game.is_over() && !stored.state.is_over() {
                let ended = commit(
                    state,
                    stored,
                    game,
                    vec![LineType::End],
                    PlyViews::default(),
                )
                .await;
                if let Err(error) = ended {
                    return outdated_or_failed(error);
                }
            }
            return Attempt::Done(Err(refusal));
        }
    };
    match done {
        Ok(changed) => Attempt::Done(Ok(changed)),
        Err(error) => outdated_or_failed(error),
    }
}

/// Whether `stored` is still the game's stored version (a refusal may rest on it).
async fn current(state: &AppState, stored: &Stored) -> bool {
    matches!(state.store.game_version(&stored.id).await, Ok(v) if v == stored.version)
}

fn outdated_or_failed<T>(error: StoreError) -> Attempt<T> {
    match error {
        StoreError::Stale { .. } => Attempt::Outdated,
        other => Attempt::Done(Err(other.into())),
    }
}

/// The side to move, if a bot holds its seat.
fn bot_to_move(stored: &Stored) -> ApiResult<Color> {
    let settings = &stored.settings;
    match stored.state.to_move() {
        Some(Color::White) if settings.white_bot.is_some() => Ok(Color::White),
        Some(Color::Black) if settings.black_bot.is_some() => Ok(Color::Black),
        _ => Err(ApiError::conflict(
            ServiceCode::NotBotTurn,
            "no bot is to move",
        )),
    }
}

/// Ends game `id` on time if its clock has fallen by now; used by the per-game timers.
pub async fn flag(state: &AppState, id: &str) -> ApiResult<()> {
    let _turn = state.locks.lock(id).await;
    let stored = load(state, id).await?;
    end_on_time(state, &stored).await
}

/// Ends `stored` on time if its clock has fallen by now. Losing the race to the sweep (or to a
/// change in another process) is no failure: the game changed first, so whoever changed it ended
/// it or keeps its clock now.
pub(crate) async fn end_on_time(state: &AppState, stored: &Stored) -> ApiResult<()> {
    let mut game = Game::clone(&stored.state);
    if !game.tick(now_ms()) {
        return Ok(());
    }
    match commit(
        state,
        stored,
        game,
        vec![LineType::End],
        PlyViews::default(),
    )
    .await
    {
        Ok(_) => Ok(()),
        Err(StoreError::Stale { .. }) => {
            tracing::debug!(game = stored.id, "the game changed before its flag timer");
            Ok(())
        }
        Err(other) => Err(other.into()),
    }
}

/// Writes `game` over `stored` (version-checked) and announces it once committed: to other
/// processes, then to this process's streams.
async fn commit(
    state: &AppState,
    stored: &Stored,
    game: Game,
    kinds: Vec<LineType>,
    ply: PlyViews,
) -> Result<Arc<Game>, StoreError> {
    let event = game
        .events()
        .get(stored.state.events().len()..)
        .and_then(<[Event]>::last);
    // The genome the change brings onto the board is stored first, so that its code resolves
    // once the change is seen, and a failure to store it leaves the game unchanged.
    if let Some(dna) = event.and_then(new_dna) {
        let genome = Genome::parse(dna)
            .map_err(|error| StoreError::Corrupt(format!("the engine's new DNA: {error}")))?;
        state.store.put_genome(&genome).await?;
    }
    let bot_turn = crate::bot::turn(state, &stored.settings, &game, now_ms());
    let change = change_of(stored, &game, event.cloned(), bot_turn);
    let game = Arc::new(game);
    let update = Update {
        version: stored.version + 1,
        kinds,
        ply,
        game: game.clone(),
        rematch: None,
        joined: joined(stored),
    };
    let applied = state.store.apply(&stored.id, stored.version, &change).await;
    let version = match applied {
        Ok(version) => version,
        Err(error) => {
            // Another process may have moved the game on: decode it afresh next time.
            state.cache.forget(&stored.id);
            return Err(error);
        }
    };
    state
        .cache
        .put(after(stored, &change, version, game.clone()));
    count(&state.metrics, &stored.state, &game);
    // Announced while the game's lock is held, so that its announcements leave in version order.
    publish(state, &stored.id, Update { version, ..update });
    // This process holds the next bot turn's lease: its bot acts at once.
    if let Some(turn) = &change.bot_turn {
        crate::bot::wake(state, &stored.id, turn);
    }
    Ok(game)
}

/// The DNA of the genome a ply brings onto the board: a mutant, or a promoted pawn's new genome.
fn new_dna(event: &Event) -> Option<&str> {
    match event {
        Event::Move { mutated_to, .. } => mutated_to.as_deref(),
        Event::Promotion { genome, .. } => Some(genome),
        _ => None,
    }
}

/// The stored game after `change` into `game` committed as `version`.
fn after(
    stored: &Stored,
    change: &Change<Event, GameSnapshot>,
    version: i64,
    game: Arc<Game>,
) -> Stored {
    let finished = game.is_over();
    let plies = stored.plies + i64::from(change.ply.is_some());
    Stored {
        version,
        status: game.status(),
        finished,
        plies,
        state_plies: if change.state.is_some() {
            plies
        } else {
            stored.state_plies
        },
        deadline_ms: game.deadline_ms().filter(|_| !finished),
        state: game,
        ..stored.clone()
    }
}

/// What the store writes for `stored` changed into `game` (`bot_turn`: the bot turn it leaves,
/// if any).
fn change_of(
    stored: &Stored,
    game: &Game,
    ply: Option<Event>,
    bot_turn: Option<BotTurn>,
) -> Change<Event, GameSnapshot> {
    Change {
        state: snapshot_due(stored, game, ply.is_some()),
        ply,
        status: game.status(),
        deadline_ms: game.deadline_ms(),
        finished: game.is_over(),
        bot_turn,
    }
}

/// Hands a committed update to other processes, then to this process.
pub fn publish(state: &AppState, id: &str, update: Update) {
    state.listener.notify(id, &update);
    publish_here(state, id, update);
}

/// Hands news that changes nothing of the game (a seat joining) to other processes, then to
/// this process's streams; the flag timers stay as they are.
pub fn announce(state: &AppState, id: &str, update: Update) {
    state.listener.notify(id, &update);
    state.hub.publish(id, update);
}

/// Re-arms the game's flag timer and hands the update to this process's streams.
fn publish_here(state: &AppState, id: &str, update: Update) {
    state.timers.arm(state, id, update.game.deadline_ms());
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

/// The stream lines of a move: the move, the decline of the draw offer it answered (`offer`: the
/// one pending before it), a freeze if it froze the game, the end if it ended it.
pub fn move_kinds(game: &Game, ply: &MovePly, offer: Option<Color>) -> Vec<LineType> {
    let mut kinds = vec![LineType::Move];
    if offer.is_some() && game.draw_offer().is_none() && !game.is_over() {
        kinds.push(LineType::DrawDeclined);
    }
    if ply.froze && !game.is_over() {
        kinds.push(LineType::Clock);
    }
    with_end(game, kinds)
}

/// `kinds` plus the end when the game is over.
pub fn with_end(game: &Game, mut kinds: Vec<LineType>) -> Vec<LineType> {
    if game.is_over() {
        kinds.push(LineType::End);
    }
    kinds
}

/// Refuses a request that needs the game to be over.
pub fn require_over(game: &Game) -> ApiResult<()> {
    if game.is_over() {
        Ok(())
    } else {
        Err(ApiError::conflict(
            ServiceCode::NotOver,
            format!(
                "the record is open once the game is over; it is {}",
                game.status().name()
            ),
        ))
    }
}
