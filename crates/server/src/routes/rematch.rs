//! `POST /api/games/{id}/rematch`: a seat of a finished game asks for a rematch
//! (`gmo_play::Rematches`).

use crate::answer::Json;
use crate::error::ApiResult;
use crate::extract::{ApiPath, Bearer};
use crate::responses::{Conflict, Forbidden, NotFound, Unauthorized, Unavailable};
use crate::schema::Id;
use crate::state::AppState;
use axum::Router;
use axum::extract::State;
use axum::routing::post;
use gmo_types::GameId;
use serde::Serialize;
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}/rematch", post(ask))
}

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

/// Asks for a rematch once the game is over; when both seats have asked (a bot's seat asks at
/// once) a new game starts with the same settings and the colours swapped. Asking again changes
/// nothing. Each seat's stream of the finished game announces `rematch_offer` and `rematch`.
#[utoipa::path(post, path = "/api/games/{id}/rematch", tag = "games", operation_id = "ask_rematch",
    security(("bearer" = [])), params(("id" = Id, Path, description = "the finished game's id")),
    responses((status = 200, description = "who has asked; once both have, the new game and the \
caller's token in it", body = RematchView),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound), (status = 409, response = Conflict),
              (status = 503, response = Unavailable)))]
pub async fn ask(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<GameId>,
    Bearer(token): Bearer,
) -> ApiResult<Json<RematchView>> {
    let rematch = state.play.rematches.ask(&id, &token).await?;
    let (game, token) = rematch.game.map_or((None, None), |(game, token)| {
        (Some(game.to_string()), Some(token))
    });
    Ok(Json(RematchView {
        asked: RematchAsked {
            white: rematch.asked.white,
            black: rematch.asked.black,
        },
        game,
        token,
    }))
}
