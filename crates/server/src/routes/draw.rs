//! `POST /api/games/{id}/draw`: a seat offers a draw, or accepts the other seat's offer. A move
//! by the offerer's opponent declines it (see `games::move_kinds`).

use crate::answer::Json;
use crate::app::AppState;
use crate::error::ApiResult;
use crate::extract::{ApiPath, Bearer};
use crate::games::{self, Acted, game_error};
use crate::hub::{LineType, PlyViews};
use crate::keys::GameId;
use crate::routes::doc::{Conflict, Forbidden, NotFound, Unauthorized};
use crate::schema::Id;
use crate::time::now_ms;
use crate::views::{GameView, game_view};
use axum::Router;
use axum::extract::State;
use axum::routing::post;
use gmo_engine::{DrawOffer, Viewer};

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
    // An offer already pending is answered without a change (and without a stream line).
    let stored = games::load(&state, &id).await?;
    let seat = games::seat_of(&state, &stored, &token).await?;
    if stored.state.draw_offer() == Some(seat) && !stored.state.is_over() {
        let view = game_view(
            &id,
            &stored.state,
            games::joined(&stored),
            Viewer::Player(seat),
            now_ms(),
        );
        return Ok(Json(view));
    }
    let changed = games::change(&state, &id, &token, |game, seat, now| {
        let kinds = match game.offer_draw(seat, now).map_err(game_error)? {
            DrawOffer::Made | DrawOffer::AlreadyPending => vec![LineType::DrawOffer],
            DrawOffer::Agreed => vec![LineType::DrawAgreed, LineType::End],
        };
        Ok(Acted {
            answer: (),
            kinds,
            ply: PlyViews::default(),
        })
    })
    .await?;
    let viewer = Viewer::Player(changed.seat);
    Ok(Json(game_view(
        &id,
        &changed.game,
        changed.joined,
        viewer,
        changed.now,
    )))
}
