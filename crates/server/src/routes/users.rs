//! Players as anyone may see them (`gmo_play::users`): a profile, their games page by page, their
//! rating history, and the leaderboard. docs/api.md, "Accounts".

use super::accounts::RatingView;
use crate::answer::Json;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ServiceCode;
use crate::extract::{ApiPath, only_parameter};
use crate::responses::{Invalid, NotFound};
use crate::schema::{Id, UsernameText};
use crate::state::AppState;
use crate::views::{GameView, rfc3339, seen_view};
use axum::Router;
use axum::extract::{RawQuery, State};
use axum::routing::get;
use gmo_play::now;
use gmo_types::{GameId, Username};
use serde::Serialize;
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/users/{username}", get(profile))
        .route("/api/users/{username}/games", get(games))
        .route("/api/users/{username}/rating-history", get(history))
        .route("/api/leaderboard", get(leaderboard))
}

/// A player's finished games (aborted ones aside), by result.
#[derive(Debug, Serialize, ToSchema)]
pub struct CountsView {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// A player as anyone sees them.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProfileView {
    #[schema(value_type = UsernameText)]
    pub username: Username,
    pub rating: RatingView,
    pub counts: CountsView,
    /// When the account was made (RFC 3339, UTC).
    pub created_at: String,
    /// A bot account (issue 33): its rating is of the bots' pool.
    pub bot: bool,
}

/// A player's rating after one rated game.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingPointView {
    /// When the game ended (RFC 3339, UTC).
    pub at: String,
    /// The rating after it, rounded.
    pub value: i64,
    /// Its deviation after it, rounded.
    pub deviation: i64,
}

/// A row of the leaderboard.
#[derive(Debug, Serialize, ToSchema)]
pub struct LeaderView {
    #[schema(value_type = UsernameText)]
    pub username: Username,
    /// The rating, rounded (never provisional here).
    pub rating: i64,
    /// Rated games played.
    pub games: u32,
}

/// A player: rating (with `provisional` while the deviation is 110 or more), results, since when.
#[utoipa::path(get, path = "/api/users/{username}", tag = "accounts", operation_id = "get_user",
    params(("username" = UsernameText, Path, description = "the player's name (any case)")),
    responses((status = 200, description = "the player", body = ProfileView),
              (status = 404, response = NotFound)))]
pub async fn profile(
    State(state): State<AppState>,
    ApiPath(username): ApiPath<Username>,
) -> ApiResult<Json<ProfileView>> {
    let profile = state.play.users.profile(&username).await?;
    let results = profile.results;
    Ok(Json(ProfileView {
        rating: RatingView::of(&profile.account),
        counts: CountsView {
            games: results.games,
            wins: results.wins,
            draws: results.draws,
            losses: results.losses,
        },
        created_at: rfc3339(profile.account.created_at),
        bot: profile.account.bot,
        username: profile.account.username,
    }))
}

/// A player's games, finished and live, newest first, 50 a page, as a spectator sees them (with
/// `players`); `before` (the last game of the previous page) gives the next page.
#[utoipa::path(get, path = "/api/users/{username}/games", tag = "accounts",
    operation_id = "get_user_games",
    params(("username" = UsernameText, Path, description = "the player's name (any case)"),
           ("before" = Option<Id>, Query, description = "the last game of the previous page")),
    responses((status = 200, description = "up to 50 games, newest first", body = [GameView]),
              (status = 404, response = NotFound), (status = 422, response = Invalid)))]
pub async fn games(
    State(state): State<AppState>,
    ApiPath(username): ApiPath<Username>,
    RawQuery(query): RawQuery,
) -> ApiResult<Json<Vec<GameView>>> {
    let before = before(query.as_deref().unwrap_or(""))?;
    let seen = state.play.users.games(&username, before.as_ref()).await?;
    let now = now();
    Ok(Json(seen.iter().map(|seen| seen_view(seen, now)).collect()))
}

/// A player's rating after each rated game, oldest first.
#[utoipa::path(get, path = "/api/users/{username}/rating-history", tag = "accounts",
    operation_id = "get_rating_history",
    params(("username" = UsernameText, Path, description = "the player's name (any case)")),
    responses((status = 200, description = "one point per rated game", body = [RatingPointView]),
              (status = 404, response = NotFound)))]
pub async fn history(
    State(state): State<AppState>,
    ApiPath(username): ApiPath<Username>,
) -> ApiResult<Json<Vec<RatingPointView>>> {
    let points = state.play.users.history(&username).await?;
    let views = points
        .into_iter()
        .map(|point| RatingPointView {
            at: rfc3339(point.at),
            value: point.value.round() as i64,
            deviation: point.deviation.round() as i64,
        })
        .collect();
    Ok(Json(views))
}

/// The best 100 players whose rating is established (not provisional), best first: people, or
/// with `pool=bots` the bots (rated apart).
#[utoipa::path(get, path = "/api/leaderboard", tag = "accounts", operation_id = "get_leaderboard",
    params(("pool" = Option<crate::schema::LeaderPool>, Query,
            description = "`people` (the default) or `bots`")),
    responses((status = 200, description = "best first", body = [LeaderView]),
              (status = 422, response = Invalid)))]
pub async fn leaderboard(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> ApiResult<Json<Vec<LeaderView>>> {
    let pool = pool(query.as_deref().unwrap_or(""))?;
    let leaders = state.play.users.leaders(pool == LeaderPool::Bots).await?;
    let views = leaders
        .into_iter()
        .map(|leader| LeaderView {
            rating: leader.rating.shown(),
            games: leader.rated_games,
            username: leader.username,
        })
        .collect();
    Ok(Json(views))
}

/// Whose leaderboard: people and bots are rated apart (the query's schema is
/// [`crate::schema::LeaderPool`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeaderPool {
    People,
    Bots,
}

/// `pool` out of the query string (absent: people); anything else is refused, naming it.
fn pool(query: &str) -> ApiResult<LeaderPool> {
    match only_parameter(query, "pool")? {
        None | Some("people") => Ok(LeaderPool::People),
        Some("bots") => Ok(LeaderPool::Bots),
        Some(other) => {
            let other: String = other.chars().take(32).collect();
            Err(ApiError::invalid(
                ServiceCode::InvalidField,
                format!("pool: {other:?} is not a pool (people or bots)"),
            ))
        }
    }
}

/// `before` out of the query string (absent: the first page); any other parameter is refused,
/// naming it.
fn before(query: &str) -> ApiResult<Option<GameId>> {
    only_parameter(query, "before")?
        .map(|value| {
            GameId::parse(value).map_err(|error| {
                ApiError::invalid(ServiceCode::InvalidField, format!("before: {error}"))
            })
        })
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::{LeaderPool, before, pool};

    #[test]
    fn pool_is_people_or_bots_or_names_the_field() {
        assert_eq!(pool("").expect("absent"), LeaderPool::People);
        assert_eq!(pool("pool=people").expect("people"), LeaderPool::People);
        assert_eq!(pool("pool=bots").expect("bots"), LeaderPool::Bots);
        for bad in ["pool=robots", "pool=bots&pool=bots", "page=2", "pool"] {
            let refused = pool(bad).expect_err(bad);
            assert!(
                format!("{refused:?}").contains("pool"),
                "{bad}: {refused:?}"
            );
        }
    }

    #[test]
    fn before_is_a_game_id_or_names_the_field() {
        assert_eq!(before("").expect("absent"), None);
        let id = "5d41402abc4b2a76b9719d911017c592";
        let found = before(&format!("before={id}")).expect("an id");
        assert_eq!(found.map(|id| id.to_string()).as_deref(), Some(id));
        for bad in ["before=xyz", "after=1", &format!("before={id}&before={id}")] {
            let error = before(bad).expect_err(bad);
            assert!(error.body().message.contains("before"), "{bad}: {error:?}");
        }
    }
}
