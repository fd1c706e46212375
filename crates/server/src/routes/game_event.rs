//! The event a game belongs to (`GET /api/games/{id}/event`): what the game page names the teams
//! by, and why it offers no abort, rematch or new game (the server refuses them: `event_game`),
//! but the way back to the event instead.

use crate::answer::Json;
use crate::error::ApiResult;
use crate::extract::ApiPath;
use crate::responses::{BadRequest, NotFound};
use crate::routes::events::TeamJson;
use crate::schema::Id;
use crate::state::AppState;
use axum::Router;
use axum::extract::State;
use axum::routing::get;
use gmo_store::GameBoard;
use gmo_types::{EventId, GameId};
use serde::Serialize;
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}/event", get(event_of_game))
}

/// The event of a game, or none.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameEventAnswer {
    /// `null` for a game that is no event's.
    pub event: Option<GameEventJson>,
}

/// An event's game: the event, its round and board, and each seat's team.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameEventJson {
    #[schema(value_type = Id)]
    pub id: EventId,
    pub name: String,
    #[schema(minimum = 1)]
    pub round: u32,
    /// The board's place in the round's pairings, from 1.
    #[schema(minimum = 1)]
    pub board: u32,
    pub teams: GameTeams,
}

/// The team playing each seat.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameTeams {
    pub white: TeamJson,
    pub black: TeamJson,
}

/// The event, round, board and teams of a game (anyone: names are public), `null` for a game
/// that is no event's.
#[utoipa::path(get, path = "/api/games/{id}/event", tag = "events", operation_id = "game_event",
    params(("id" = Id, Path, description = "the game's id")),
    responses((status = 200, description = "the game's event, or null", body = GameEventAnswer),
              (status = 400, response = BadRequest), (status = 404, response = NotFound)))]
pub async fn event_of_game(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<Json<GameEventAnswer>> {
    let board = state.play.events.board_of_game(&id).await?;
    Ok(Json(GameEventAnswer {
        event: board.map(event_json),
    }))
}

fn event_json(board: GameBoard) -> GameEventJson {
    let team = |(id, name)| TeamJson { id, name };
    GameEventJson {
        id: board.event,
        name: board.event_name,
        round: board.round,
        board: board.board + 1,
        teams: GameTeams {
            white: team(board.white),
            black: team(board.black),
        },
    }
}
