//! `POST /api/games/{id}/draw`: a seat offers a draw, or accepts the other seat's offer. A move
//! by the offerer's opponent declines it.

use crate::answer::Json;
use crate::error::ApiResult;
use crate::extract::{ApiPath, Bearer};
use crate::responses::{Conflict, Forbidden, NotFound, Unauthorized};
use crate::schema::Id;
use crate::state::AppState;
use crate::views::{GameView, seen_view};
use axum::Router;
use axum::extract::State;
use axum::routing::post;
use gmo_play::now;
use gmo_types::GameId;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}/draw", post(draw))
}

/// Offers a draw, or accepts the other seat's pending offer (the game ends drawn, reason
/// `agreement`). Offering again while the seat's own offer is pending changes nothing.
#[utoipa::path(post, path = "/api/games/{id}/draw", tag = "games", operation_id = "offer_game_draw",
    security(("bearer" = [])), params(("id" = Id, Path, description = "the game's id")),
    responses((status = 200, description = "the game as the seat sees it: `draw_offer` names the \
seat whose offer is pending, or the game is over (`draw`, reason `agreement`)", body = GameView),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound), (status = 409, response = Conflict)))]
pub async fn draw(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<GameId>,
    Bearer(token): Bearer,
) -> ApiResult<Json<GameView>> {
    let seen = state.play.games.offer_draw(&id, &token).await?;
    Ok(Json(seen_view(&seen, now())))
}
