//! `GET /api/games/{id}/plies`: every ply so far as the caller may see it, so that a client can
//! rebuild the history after a reload (the stream's first line carries the same list).

use crate::answer::Json;
use crate::error::ApiResult;
use crate::extract::{ApiPath, MaybeBearer};
use crate::record::plies_seen;
use crate::responses::{Forbidden, NotFound, Unauthorized};
use crate::schema::Id;
use crate::state::AppState;
use axum::Router;
use axum::extract::State;
use axum::routing::get;
use gmo_engine::PlyView;
use gmo_types::GameId;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}/plies", get(plies))
}

/// Every move and promotion so far, in order, as the caller may see them: the other side's new
/// codes (mutations, promotions) stay hidden until the end, exactly as on the stream.
#[utoipa::path(get, path = "/api/games/{id}/plies", tag = "games", operation_id = "list_game_plies",
    security(("bearer" = []), ()), params(("id" = Id, Path, description = "the game's id")),
    responses((status = 200, description = "the plies so far, oldest first (empty before the \
first move)", body = Vec<PlyView>),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound)))]
pub async fn plies(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<GameId>,
    MaybeBearer(token): MaybeBearer,
) -> ApiResult<Json<Vec<PlyView>>> {
    let seen = state.play.games.show(&id, token.as_deref()).await?;
    Ok(Json(plies_seen(&seen.game, seen.viewer)?))
}
