//! A game as it stood after its first `events` events, rebuilt from the stored record: a process
//! relaying another's announcement that the game has since moved past shows that change with the
//! game it made, instead of skipping its line.

use gmo_engine::{Game, GameStatus, replay};
use gmo_store::Store;
use gmo_types::GameId;

/// Game `id` after its first `events` events, or why it cannot be rebuilt. Only a game that had
/// started and was not over then (a later change exists) can be.
pub async fn game_at(store: &Store, id: &GameId, events: usize) -> Result<Game, String> {
    let game = crate::stored::decode(store, id)
        .await
        .map_err(|error| error.to_string())?
        .state;
    let mut earlier = game.record();
    if earlier.started_ms.is_none() || events > earlier.events.len() {
        return Err("the game had not started, or the record is shorter".into());
    }
    earlier.events.truncate(events);
    earlier.status = GameStatus::InProgress;
    earlier.reason = None;
    replay(&earlier).map_err(|error| error.to_string())
}
