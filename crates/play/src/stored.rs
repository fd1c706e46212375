//! A stored game as the service holds it: the engine's game (decoded once, shared) with the
//! store's bookkeeping. The row keeps an engine snapshot without its events: every change appends
//! its event to the plies table already. The snapshot is written on every change that is not a
//! ply, at the end and every [`SNAPSHOT_EVERY`] plies; other moves write only their ply and a few
//! columns. Decoding puts the record back and replays the plies since the snapshot.

use gmo_engine::{Event, Game, GameSnapshot};
use gmo_store::{Joined, Store, StoreError};
use gmo_types::GameId;
use std::sync::Arc;

/// A stored game: the engine's state (decoded once, shared) plus the store's bookkeeping.
pub type Stored = gmo_store::Game<Arc<Game>>;

/// At most this many plies are replayed to load a game: a move writes the whole state when the
/// snapshot is this many plies behind. (32 keeps loading under a millisecond while a move writes
/// its few kB of state once in 32; docs/performance.md.)
pub const SNAPSHOT_EVERY: i64 = 32;

/// The state written to a game's row.
pub fn row_state(game: &Game) -> GameSnapshot {
    game.snapshot_without_events()
}

/// The snapshot a change of `stored` into `game` writes, if any: always for a change that is not
/// a ply (the record cannot rebuild it) and at the end, else once the snapshot would fall
/// [`SNAPSHOT_EVERY`] plies behind.
pub fn snapshot_due(stored: &Stored, game: &Game, plied: bool) -> Option<GameSnapshot> {
    let behind = stored.plies + i64::from(plied) - stored.state_plies;
    let due = !plied || game.is_over() || behind >= SNAPSHOT_EVERY;
    due.then(|| row_state(game))
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

/// The game's row and record, as one engine game: the snapshot with the plies before it as its
/// record, then the plies since replayed.
pub async fn decode(store: &Store, id: &GameId) -> Result<Stored, StoreError> {
    let row: gmo_store::Game<GameSnapshot> = store.load_game(id).await?;
    let mut events: Vec<Event> = store.record(id).await?;
    // Plies committed after the row was read belong to a later version.
    events.truncate(usize::try_from(row.plies).unwrap_or(0));
    let at = usize::try_from(row.state_plies)
        .unwrap_or(0)
        .min(events.len());
    let since = events.split_off(at);
    assemble(row, events, &since)
}

/// The game as it stands, to be shown: the snapshot and the plies since replayed, without the
/// plies before the snapshot (its events are only those since), so one row and a few plies are
/// read however long the game.
pub async fn current(store: &Store, id: &GameId) -> Result<Stored, StoreError> {
    let row: gmo_store::Game<GameSnapshot> = store.load_game(id).await?;
    let mut since: Vec<Event> = store.record_since(id, row.state_plies).await?;
    since.truncate(usize::try_from(row.plies - row.state_plies).unwrap_or(0));
    assemble(row, Vec::new(), &since)
}

/// A stored game from its row, the plies before its snapshot (`earlier`) and those since.
fn assemble(
    row: gmo_store::Game<GameSnapshot>,
    earlier: Vec<Event>,
    since: &[Event],
) -> Result<Stored, StoreError> {
    let gmo_store::Game {
        id,
        version,
        status,
        finished,
        settings,
        white_token,
        black_token,
        creator_token,
        state: mut snapshot,
        state_plies,
        plies,
        deadline,
        joined,
        players,
        rated,
        created_at,
    } = row;
    snapshot.events = earlier;
    let mut game =
        Game::try_from(snapshot).map_err(|e| StoreError::Corrupt(format!("game {id}: {e:?}")))?;
    game.replay_events(since)
        .map_err(|e| StoreError::Corrupt(format!("game {id}: {e}")))?;
    Ok(Stored {
        id,
        version,
        status,
        finished,
        settings,
        white_token,
        black_token,
        creator_token,
        state: Arc::new(game),
        state_plies,
        plies,
        deadline,
        joined,
        players,
        rated,
        created_at,
    })
}
