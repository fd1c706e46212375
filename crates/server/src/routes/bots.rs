//! `GET /api/bots/online` (issue 33): the bot accounts with an event stream open now, with their
//! ratings, best first (a bounded list).

use crate::answer::Json;
use crate::error::ApiResult;
use crate::state::AppState;
use axum::Router;
use axum::extract::State;
use axum::routing::get;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/bots/online", get(online))
}

/// The bots online now (an event stream open), best rated first, at most 100. Their ratings are
/// of the bots' own pool.
#[utoipa::path(get, path = "/api/bots/online", tag = "challenges", operation_id = "bots_online",
    responses((status = 200, description = "the bots online", body = Vec<BotView>)))]
pub async fn online(State(state): State<AppState>) -> ApiResult<Json<Vec<BotView>>> {
    let bots = state.play.challenges.bots_online().await?;
    let views = bots
        .into_iter()
        .map(|bot| BotView {
            rating: bot.rating.shown(),
            provisional: bot.rating.provisional(),
            games: bot.rated_games,
            username: bot.username,
        })
        .collect();
    Ok(Json(views))
}

/// A bot online.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct BotView {
    #[schema(value_type = crate::schema::UsernameText)]
    pub username: gmo_types::Username,
    /// The rating, rounded.
    pub rating: i64,
    /// Whether it is provisional (shown with `?`).
    pub provisional: bool,
    /// Rated games played.
    pub games: u32,
}
