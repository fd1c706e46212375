//! Games to watch: `GET /api/games?status=in_progress` (the live games, a page at a time) and
//! `GET /api/tv` (the one most worth watching). Spectator views: nobody's hidden genomes.

use crate::answer::Json;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ServiceCode;
use crate::responses::Invalid;
use crate::state::AppState;
use crate::views::{GameView, seen_view};
use axum::Router;
use axum::extract::{RawQuery, State};
use axum::routing::get;
use gmo_play::games::{LIVE_PAGE, LIVE_PAGES};
use gmo_play::now;
use serde::Serialize;
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/tv", get(tv))
}

/// The game on TV.
#[derive(Debug, Serialize, ToSchema)]
pub struct TvView {
    /// The live game most worth watching; `null` when none is in progress.
    #[schema(value_type = Option<crate::schema::Id>)]
    pub game: Option<String>,
}

/// The games in progress, the most recently changed first, 50 a page, as a spectator sees them.
#[utoipa::path(get, path = "/api/games", tag = "games", operation_id = "list_live_games",
    params(("status" = crate::schema::LiveStatus, Query, description = "`in_progress` (the only one listed)"),
           ("page" = Option<crate::schema::LivePage>, Query, description = "1 to 20 (default 1), 50 games a page")),
    responses((status = 200, description = "live games, most recent move first", body = [GameView]),
              (status = 422, response = Invalid)))]
pub async fn live(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> ApiResult<Json<Vec<GameView>>> {
    let page = page_of(query.as_deref().unwrap_or(""))?;
    let seen = state.play.games.live(page).await?;
    let now = now();
    Ok(Json(seen.iter().map(|seen| seen_view(seen, now)).collect()))
}

/// The live game most worth watching: a rated one first, then the most recently changed.
#[utoipa::path(get, path = "/api/tv", tag = "games", operation_id = "get_tv",
    responses((status = 200, description = "the game on TV", body = TvView)))]
pub async fn tv(State(state): State<AppState>) -> ApiResult<Json<TvView>> {
    let game = state.play.games.tv().await?;
    Ok(Json(TvView {
        game: game.map(|id| id.to_string()),
    }))
}

/// The page asked for by `status=in_progress&page=N` (status required, page 1 to 20).
fn page_of(query: &str) -> ApiResult<u32> {
    let refused = |message: String| ApiError::invalid(ServiceCode::InvalidField, message);
    let (mut status, mut page) = (None, None);
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        match key {
            "status" if status.is_none() => status = Some(value),
            "page" if page.is_none() => {
                let number = value
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (1..=LIVE_PAGES).contains(n));
                page = Some(number.ok_or_else(|| {
                    refused(format!("page: 1 to {LIVE_PAGES}, {LIVE_PAGE} games each"))
                })?);
            }
            _ => {
                let key: String = key.chars().take(32).collect();
                return Err(refused(format!(
                    "{key:?} is not a parameter here, or is given twice (status, page)"
                )));
            }
        }
    }
    if status != Some("in_progress") {
        return Err(refused(
            "status: the games listed are those in progress: status=in_progress".into(),
        ));
    }
    Ok(page.unwrap_or(1))
}

#[cfg(test)]
mod tests {
    use super::page_of;

    #[test]
    fn the_page_is_asked_with_the_status_and_bounded() {
        assert_eq!(page_of("status=in_progress").expect("page 1"), 1);
        assert_eq!(page_of("status=in_progress&page=3").expect("page 3"), 3);
        for bad in [
            "",
            "status=finished",
            "status=in_progress&page=0",
            "status=in_progress&page=21",
            "status=in_progress&page=x",
            "status=in_progress&status=in_progress",
            "limit=3",
        ] {
            let error = page_of(bad).expect_err(bad);
            let message = error.body().message;
            assert!(
                message.contains("status") || message.contains("page"),
                "{bad}: {message}"
            );
        }
    }
}
