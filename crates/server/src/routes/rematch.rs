//! `POST /api/games/{id}/rematch`: a seat of a finished game asks for a rematch (see
//! `crate::rematch`).

use crate::answer::Json;
use crate::app::AppState;
use crate::error::ApiResult;
use crate::extract::{ApiPath, Bearer};
use crate::keys::GameId;
use crate::rematch::{self, RematchView};
use crate::routes::doc::{Conflict, Forbidden, NotFound, Unauthorized, Unavailable};
use crate::schema::Id;
use axum::Router;
use axum::extract::State;
use axum::routing::post;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}/rematch", post(ask))
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
    // One ask at a time per game in this process; across processes the store decides.
    let _turn = state.locks.lock(&id).await;
    Ok(Json(rematch::ask(&state, &id, &token).await?))
}
