//! The lobby: open a seek (paired at once with the oldest matching open seek, if any), list the
//! open seeks, accept one, withdraw one's own (`gmo_play::Lobby`). The seeker learns of its game
//! on the seek's stream (`routes::seek_stream`); docs/service.md, "Lobby".

use super::games::ClockRequest;
use crate::answer::Json;
use crate::error::ApiResult;
use crate::extract::{ApiJson, ApiPath, Bearer};
use crate::limits::{ClientAddress, CreationLimit};
use crate::responses::{
    BadRequest, Conflict, Forbidden, Invalid, NotFound, TooLarge, TooManyRequests, Unauthorized,
    Unavailable,
};
use crate::schema::Id;
use crate::signed::{MaybeSigned, Signed};
use crate::state::AppState;
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use gmo_engine::Color;
use gmo_play::accounts::Caller;
use gmo_play::lobby::SeekRequest;
use gmo_play::now;
use gmo_store::Seek;
use gmo_types::{AccountId, ColorWish, Millis, Scope, SeekId, Timestamp};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/seeks", post(create).get(list))
        .route("/api/seeks/{id}", axum::routing::delete(withdraw))
        .route("/api/seeks/{id}/accept", post(accept))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewSeekRequest {
    /// The clock wished for; seeks pair only with the same clock and board.
    pub clock: ClockRequest,
    /// Files, 4 to 8 (default 8).
    #[serde(default, deserialize_with = "crate::extract::optional_whole_number")]
    #[schema(minimum = 4, maximum = 8)]
    pub width: Option<u8>,
    /// Ranks, 4 to 8 (default 8).
    #[serde(default, deserialize_with = "crate::extract::optional_whole_number")]
    #[schema(minimum = 4, maximum = 8)]
    pub height: Option<u8>,
    /// The colour wished for (default `random`).
    pub color: Option<ColorWish>,
    /// A rated game (default `false`): the seeker must be signed in (session or a personal
    /// token with the `play` scope), the board 8 × 8; it pairs only with another account's rated
    /// seek and is accepted only by another account.
    #[serde(default)]
    pub rated: bool,
}

/// A new seek: follow `GET /api/seeks/{id}/stream` with the token (shown once) to learn the game.
#[derive(Debug, Serialize, ToSchema)]
pub struct NewSeekAnswer {
    #[schema(value_type = crate::schema::Id)]
    pub id: String,
    #[schema(value_type = crate::schema::Token)]
    pub token: String,
}

/// A seek's clock.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeekClock {
    #[schema(value_type = i64)]
    pub initial_ms: Millis,
    #[schema(value_type = i64)]
    pub increment_ms: Millis,
}

/// An open seek as the lobby lists it (never its token).
#[derive(Debug, Serialize, ToSchema)]
pub struct SeekView {
    #[schema(value_type = crate::schema::Id)]
    pub id: String,
    pub clock: SeekClock,
    pub width: u16,
    pub height: u16,
    pub color: ColorWish,
    /// Whether its game is rated.
    pub rated: bool,
    /// The seeker's account, if signed in.
    #[schema(value_type = Option<crate::schema::UsernameText>)]
    pub username: Option<String>,
    /// The seeker's rating now, rounded (`null` for an anonymous seeker).
    pub rating: Option<i64>,
    /// Whether that rating is provisional (shown with `?`); `false` for an anonymous seeker.
    pub provisional: bool,
    /// How long it has been open, in ms.
    #[schema(value_type = i64)]
    pub age_ms: Millis,
}

/// An accepted seek: the game and the caller's seat and token (shown once).
#[derive(Debug, Serialize, ToSchema)]
pub struct AcceptAnswer {
    #[schema(value_type = crate::schema::Id)]
    pub game: String,
    pub seat: Color,
    #[schema(value_type = crate::schema::Token)]
    pub token: String,
}

/// Opens a seek → its id and token; a matching open seek (same clock and board, compatible
/// colours) is paired with it at once, the oldest first.
#[utoipa::path(post, path = "/api/seeks", tag = "lobby", operation_id = "create_seek",
    request_body = NewSeekRequest,
    responses((status = 201, description = "the new seek", body = NewSeekAnswer),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 409, response = Conflict),
              (status = 413, response = TooLarge), (status = 422, response = Invalid),
              (status = 429, response = TooManyRequests), (status = 503, response = Unavailable)))]
pub async fn create(
    _limit: CreationLimit,
    State(state): State<AppState>,
    ClientAddress(client): ClientAddress,
    MaybeSigned(caller): MaybeSigned,
    ApiJson(body): ApiJson<NewSeekRequest>,
) -> ApiResult<(StatusCode, Json<NewSeekAnswer>)> {
    let account = playing_account(caller)?;
    let (initial, increment) = body.clock.millis();
    let request = SeekRequest {
        width: body.width,
        height: body.height,
        initial,
        increment,
        wish: body.color.unwrap_or(ColorWish::Random),
        rated: body.rated,
    };
    let lobby = &state.play.lobby;
    let (id, token) = lobby.open(&client, request, account.as_ref()).await?;
    let id = id.to_string();
    Ok((StatusCode::CREATED, Json(NewSeekAnswer { id, token })))
}

/// The open seeks, newest first (at most 100), for a lobby list.
#[utoipa::path(get, path = "/api/seeks", tag = "lobby", operation_id = "list_seeks",
    responses((status = 200, description = "the open seeks, newest first", body = Vec<SeekView>)))]
pub async fn list(State(state): State<AppState>) -> ApiResult<Json<Vec<SeekView>>> {
    let now = now();
    let seeks = state.play.lobby.list().await?;
    Ok(Json(seeks.into_iter().map(|s| view(s, now)).collect()))
}

fn view(seek: Seek, now: Timestamp) -> SeekView {
    SeekView {
        clock: SeekClock {
            initial_ms: seek.pool.initial,
            increment_ms: seek.pool.increment,
        },
        width: seek.pool.width,
        height: seek.pool.height,
        color: seek.wish,
        rated: seek.pool.rated,
        username: seek.username,
        rating: seek.rating.map(|rating| rating.shown()),
        provisional: seek.rating.is_some_and(|rating| rating.provisional()),
        age_ms: now.since(seek.created_at).at_least_zero(),
        id: seek.id.to_string(),
    }
}

/// Withdraws the caller's open seek (its token as bearer); a paired seek stays paired (409).
#[utoipa::path(delete, path = "/api/seeks/{id}", tag = "lobby", operation_id = "withdraw_seek",
    params(("id" = Id, Path, description = "the seek's id")), security(("bearer" = [])),
    responses((status = 204, description = "withdrawn"),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound), (status = 409, response = Conflict)))]
pub async fn withdraw(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<SeekId>,
    Bearer(token): Bearer,
) -> ApiResult<StatusCode> {
    state.play.lobby.withdraw(&id, &token).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Takes an open seek: a game is made between its seeker and the caller → the game, and the
/// caller's seat and token (the seeker's stream gets `paired`).
#[utoipa::path(post, path = "/api/seeks/{id}/accept", tag = "lobby", operation_id = "accept_seek",
    params(("id" = Id, Path, description = "the seek's id")),
    responses((status = 200, description = "the game made", body = AcceptAnswer),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 404, response = NotFound),
              (status = 409, response = Conflict), (status = 429, response = TooManyRequests)))]
pub async fn accept(
    _limit: CreationLimit,
    State(state): State<AppState>,
    ApiPath(id): ApiPath<SeekId>,
    MaybeSigned(caller): MaybeSigned,
) -> ApiResult<Json<AcceptAnswer>> {
    let account = playing_account(caller)?;
    let taken = state.play.lobby.accept(&id, account.as_ref()).await?;
    Ok(Json(AcceptAnswer {
        game: taken.game.to_string(),
        seat: taken.seat,
        token: taken.token,
    }))
}

/// The account a signed-in caller plays as: a session, or a personal token with the `play`
/// scope (another token is refused).
fn playing_account(caller: Option<Caller>) -> ApiResult<Option<AccountId>> {
    caller
        .map(|caller| Signed(caller).in_scope(Scope::Play))
        .transpose()
        .map(|caller| caller.map(|caller| caller.account))
}
