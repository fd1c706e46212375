//! The lobby: open a seek (paired at once with the oldest matching open seek, if any), list the
//! open seeks, accept one, withdraw one's own. The seeker learns of its game on the seek's
//! stream (`routes::seek_stream`). Pairing is the store's one transaction; docs/service.md,
//! "Lobby".

use super::games::ClockRequest;
use crate::answer::Json;
use crate::app::AppState;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ServiceCode;
use crate::extract::{ApiJson, ApiPath, Bearer};
use crate::games::{NewSetUp, settings_of, wrong_token};
use crate::keys::SeekId;
use crate::limits::{CreationLimit, client_address};
use crate::lobby::{LIST_LIMIT, alive_since, seat_token_of, set_up};
use crate::routes::doc::{
    BadRequest, Conflict, Forbidden, Invalid, NotFound, TooLarge, TooManyRequests, Unauthorized,
    Unavailable,
};
use crate::schema::Id;
use crate::time::now_ms;
use axum::Router;
use axum::extract::{FromRequestParts, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::routing::post;
use gmo_engine::Color;
use gmo_store::{Accepted, NewSeek, Opened, Pool, Seek, SeekLimits, SeekState};
use gmo_types::ColorWish;
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
    pub initial_ms: i64,
    pub increment_ms: i64,
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
    /// How long it has been open, in ms.
    pub age_ms: i64,
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

/// Who a client is for the per-client bound: its address as the rate limiter sees it (the
/// socket's peer, or `X-Forwarded-For` from a trusted proxy; `unknown` when the server was not
/// started with connection info, as in tests that build the router alone).
#[derive(Debug)]
pub struct Client(pub String);

impl FromRequestParts<AppState> for Client {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let address = client_address(parts, &state.config.trusted_proxies);
        Ok(Client(address.map_or_else(
            || "unknown".to_owned(),
            |address| address.to_string(),
        )))
    }
}

/// Opens a seek → its id and token; a matching open seek (same clock and board, compatible
/// colours) is paired with it at once, the oldest first.
#[utoipa::path(post, path = "/api/seeks", tag = "lobby", operation_id = "create_seek",
    request_body = NewSeekRequest,
    responses((status = 201, description = "the new seek", body = NewSeekAnswer),
              (status = 400, response = BadRequest), (status = 409, response = Conflict),
              (status = 413, response = TooLarge), (status = 422, response = Invalid),
              (status = 429, response = TooManyRequests), (status = 503, response = Unavailable)))]
pub async fn create(
    _limit: CreationLimit,
    State(state): State<AppState>,
    client: Client,
    ApiJson(body): ApiJson<NewSeekRequest>,
) -> ApiResult<(StatusCode, Json<NewSeekAnswer>)> {
    let clock = (body.clock.initial_ms, body.clock.increment_ms);
    let settings = settings_of(body.width, body.height, Some(clock))?;
    let pool = Pool {
        width: settings.width.into(),
        height: settings.height.into(),
        initial_ms: settings.initial_ms,
        increment_ms: settings.increment_ms,
    };
    let token = gmo_store::new_token();
    let new = NewSeek {
        token: gmo_store::token_hash(&token),
        seat_token: gmo_store::token_hash(&seat_token_of(&token)),
        client: &client.0,
        pool,
        wish: body.color.unwrap_or(ColorWish::Random),
        now_ms: now_ms(),
    };
    let limits = SeekLimits {
        per_client: state.config.max_seeks_per_client,
        overall: state.config.max_open_seeks,
    };
    let id = match state.store.open_seek(&new, limits).await? {
        Opened::Open(id) => id,
        Opened::ClientFull => return Err(client_full(limits.per_client)),
        Opened::LobbyFull => return Err(lobby_full(limits.overall)),
    };
    pair(&state, &id, pool).await?;
    Ok((StatusCode::CREATED, Json(NewSeekAnswer { id, token })))
}

fn client_full(limit: u32) -> ApiError {
    ApiError::conflict(
        ServiceCode::SeekLimit,
        format!("a client may have at most {limit} open seeks; withdraw one first"),
    )
}

fn lobby_full(limit: u32) -> ApiError {
    ApiError::Unavailable(format!(
        "the lobby holds at most {limit} open seeks and is full; try again shortly"
    ))
}

/// Pairs open seek `id` of `pool` if a match is open → where it stands. The seeks' streams in
/// this process are woken here; the store announces the pairing to the other processes.
pub async fn pair(state: &AppState, id: &str, pool: Pool) -> ApiResult<SeekState> {
    let new = set_up(pool)?;
    let row = new.row(None, None, None, None);
    let (seek, partner) = state
        .store
        .pair_seek(id, alive_since(now_ms()), &row)
        .await?;
    if let (SeekState::Paired { game, .. }, Some(partner)) = (&seek, partner) {
        new.stored(state, game, None);
        state.seeks.ring(id);
        state.seeks.ring(&partner);
    }
    Ok(seek)
}

/// The open seeks, newest first (at most 100), for a lobby list.
#[utoipa::path(get, path = "/api/seeks", tag = "lobby", operation_id = "list_seeks",
    responses((status = 200, description = "the open seeks, newest first", body = Vec<SeekView>)))]
pub async fn list(State(state): State<AppState>) -> ApiResult<Json<Vec<SeekView>>> {
    let now = now_ms();
    let seeks = state.store.open_seeks(alive_since(now), LIST_LIMIT).await?;
    Ok(Json(seeks.into_iter().map(|s| view(s, now)).collect()))
}

fn view(seek: Seek, now: i64) -> SeekView {
    SeekView {
        clock: SeekClock {
            initial_ms: seek.pool.initial_ms,
            increment_ms: seek.pool.increment_ms,
        },
        width: seek.pool.width,
        height: seek.pool.height,
        color: seek.wish,
        age_ms: (now - seek.created_ms).max(0),
        id: seek.id,
    }
}

/// Seek `id` for the holder of `token` (404, 401, 403 otherwise).
pub async fn owned(state: &AppState, id: &str, token: &str) -> ApiResult<Seek> {
    let seek = state.store.seek(id).await?.ok_or_else(|| gone(id))?;
    if !gmo_store::token_matches(token, &seek.token) {
        return Err(wrong_token(state, token, "this seek").await);
    }
    Ok(seek)
}

fn gone(id: &str) -> ApiError {
    ApiError::NotFound {
        what: "seek",
        key: id.to_owned(),
    }
}

fn paired_already(game: &str) -> ApiError {
    ApiError::conflict(
        ServiceCode::SeekPaired,
        format!("the seek is paired already, into game {game}"),
    )
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
    owned(&state, &id, &token).await?;
    match state.store.withdraw_seek(&id).await? {
        SeekState::Open => {
            state.seeks.ring(&id);
            Ok(StatusCode::NO_CONTENT)
        }
        SeekState::Paired { game, .. } => Err(paired_already(&game)),
        SeekState::Gone => Err(gone(&id)),
    }
}

/// Takes an open seek: a game is made between its seeker and the caller → the game, and the
/// caller's seat and token (the seeker's stream gets `paired`).
#[utoipa::path(post, path = "/api/seeks/{id}/accept", tag = "lobby", operation_id = "accept_seek",
    params(("id" = Id, Path, description = "the seek's id")),
    responses((status = 200, description = "the game made", body = AcceptAnswer),
              (status = 400, response = BadRequest), (status = 404, response = NotFound),
              (status = 409, response = Conflict), (status = 429, response = TooManyRequests)))]
pub async fn accept(
    _limit: CreationLimit,
    State(state): State<AppState>,
    ApiPath(id): ApiPath<SeekId>,
) -> ApiResult<Json<AcceptAnswer>> {
    let seek = state.store.seek(&id).await?.ok_or_else(|| gone(&id))?;
    if let Some((game, _)) = &seek.paired {
        return Err(paired_already(game));
    }
    let new: NewSetUp = set_up(seek.pool)?;
    let token = gmo_store::new_token();
    let row = new.row(None, None, None, None);
    let taken = state
        .store
        .accept_seek(
            &id,
            alive_since(now_ms()),
            &row,
            gmo_store::token_hash(&token),
        )
        .await?;
    match taken {
        Accepted::Paired { game, seat } => {
            new.stored(&state, &game, None);
            state.seeks.ring(&id);
            Ok(Json(AcceptAnswer { game, seat, token }))
        }
        Accepted::Taken => Err(ApiError::conflict(
            ServiceCode::SeekPaired,
            "the seek was paired with someone else first",
        )),
        Accepted::Gone => Err(gone(&id)),
    }
}
