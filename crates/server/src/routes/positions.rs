//! `GET /api/games/{id}/positions?from=N`: the board after every ply as the caller may see it, so
//! that a client that was not there (a new browser, a reload without local state) can show any
//! earlier position of the history exactly, hidden genomes still hidden.

use crate::answer::Json;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ServiceCode;
use crate::extract::{ApiPath, MaybeBearer, only_parameter};
use crate::record::{PositionsPage, positions_seen};
use crate::responses::{Forbidden, Invalid, NotFound, Unauthorized};
use crate::schema::{Id, PlyCount};
use crate::state::AppState;
use axum::Router;
use axum::extract::{RawQuery, State};
use axum::routing::get;
use gmo_types::GameId;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}/positions", get(positions))
}

/// The game's positions from `from` on (position 0 is the start, position N the board after the
/// first N plies), at most 100 an answer, each as the caller may see it now: the other side's
/// codes hidden until the end, as in the game view; `next` names the next page.
#[utoipa::path(get, path = "/api/games/{id}/positions", tag = "games",
    operation_id = "list_game_positions", security(("bearer" = []), ()),
    params(("id" = Id, Path, description = "the game's id"),
           ("from" = Option<PlyCount>, Query, description = "the first position wanted (default 0, \
the start); beyond the plies so far, the answer holds none")),
    responses((status = 200, description = "a page of positions, oldest first", body = PositionsPage),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound), (status = 422, response = Invalid)))]
pub async fn positions(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<GameId>,
    MaybeBearer(token): MaybeBearer,
    RawQuery(query): RawQuery,
) -> ApiResult<Json<PositionsPage>> {
    let from = from(query.as_deref().unwrap_or(""))?;
    let seen = state.play.games.show(&id, token.as_deref()).await?;
    Ok(Json(positions_seen(&seen.game, seen.viewer, from)?))
}

/// `from` out of the query string (absent: 0); any other parameter is refused, naming it.
fn from(query: &str) -> ApiResult<usize> {
    let Some(value) = only_parameter(query, "from")? else {
        return Ok(0);
    };
    let digits = !value.is_empty() && value.len() <= 9 && value.bytes().all(|b| b.is_ascii_digit());
    match value.parse().ok().filter(|_| digits) {
        Some(from) => Ok(from),
        None => Err(ApiError::invalid(
            ServiceCode::InvalidField,
            "from must be a whole number of plies, 0 or more",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::from;

    #[test]
    fn from_is_a_whole_number_or_names_the_field() {
        assert_eq!(from("").expect("absent"), 0);
        assert_eq!(from("from=12").expect("given"), 12);
        for query in [
            "from=",
            "from=-1",
            "from=1.5",
            "from=x",
            "from=1&from=2",
            "to=3",
            "from=1234567890",
        ] {
            let error = from(query).expect_err(query);
            assert!(error.body().message.contains("from"), "{query}: {error:?}");
        }
    }
}
