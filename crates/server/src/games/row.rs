//! What a game's row holds, and loading it. The row keeps the engine's snapshot without its
//! events: every change appends its event to the plies table already, so the row stays a few kB
//! however long the game runs instead of rewriting the whole history on every move. Loading puts
//! the record back.

use crate::app::AppState;
use crate::error::{ApiError, ApiResult};
use crate::games::Stored;
use gmo_engine::{Event, Game, GameSnapshot, GameStatus};
use gmo_store::Status;
use std::sync::Arc;

/// The status column of a game in this state.
pub fn stored_status(status: GameStatus) -> Status {
    match status {
        GameStatus::Setup => Status::Setup,
        GameStatus::InProgress => Status::InProgress,
        GameStatus::WhiteWon => Status::WhiteWon,
        GameStatus::BlackWon => Status::BlackWon,
        GameStatus::Draw => Status::Draw,
        GameStatus::Aborted => Status::Aborted,
    }
}

/// The state written to a game's row.
pub fn row_state(game: &Game) -> GameSnapshot {
    let mut snapshot = game.snapshot();
    snapshot.events = Vec::new();
    snapshot
}

/// Loads a game (404 when missing): from this process's cache while the stored version is the
/// cached one, else decoded from the store (and cached). Who has joined is read fresh either way
/// (in the same read as the version: joining is no change of the game).
pub async fn load(state: &AppState, id: &str) -> ApiResult<Stored> {
    let head = state.store.game_head(id).await?;
    if let Some(mut stored) = state.cache.get(id, head.version) {
        stored.joined = stored.joined.union(head.joined);
        return Ok(stored);
    }
    let stored = decode(state, id).await?;
    state.cache.put(stored.clone());
    Ok(stored)
}

/// The game's row and record, as one engine game.
async fn decode(state: &AppState, id: &str) -> ApiResult<Stored> {
    let row: gmo_store::Game<GameSnapshot> = state.store.load_game(id).await?;
    let mut events: Vec<Event> = state.store.record(id).await?;
    // Plies committed after the row was read belong to a later version.
    events.truncate(usize::try_from(row.plies).unwrap_or(0));
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
        plies,
        deadline_ms,
        joined,
    } = row;
    snapshot.events = events;
    let game = Game::try_from(snapshot).map_err(ApiError::internal)?;
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
        plies,
        deadline_ms,
        joined,
    })
}

#[cfg(test)]
mod tests {
    use super::stored_status;
    use gmo_engine::GameStatus;

    #[test]
    fn stored_statuses_carry_the_api_names() {
        let statuses = [
            GameStatus::Setup,
            GameStatus::InProgress,
            GameStatus::WhiteWon,
            GameStatus::BlackWon,
            GameStatus::Draw,
            GameStatus::Aborted,
        ];
        for status in statuses {
            assert_eq!(stored_status(status).as_str(), status.name());
        }
    }
}
