//! Challenges (`gmo_play::Challenges`, issue 33): challenge a user, accept, decline, cancel.
//! Both sides learn of them on their event stream (`routes::event_stream`); docs/service.md,
//! "Challenges", and docs/agents.md, "Putting it online".

use super::games::ClockRequest;
use super::seeks::SeekClock;
use crate::answer::Json;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ServiceCode;
use crate::extract::{ApiJson, ApiPath, from_json, too_large};
use crate::limits::CreationLimit;
use crate::responses::{
    BadRequest, Conflict, Forbidden, Invalid, NotFound, TooLarge, TooManyRequests, Unauthorized,
};
use crate::schema::{Id, UsernameText};
use crate::signed::Signed;
use crate::state::AppState;
use crate::views::rfc3339;
use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use axum::routing::post;
use gmo_engine::Color;
use gmo_play::accounts::Caller;
use gmo_play::challenges::ChallengeRequest;
use gmo_play::now;
use gmo_store::{Challenge, ChallengeState, Party};
use gmo_types::{ChallengeId, ColorWish, Rating, Scope, Username};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/challenges/{username}", post(create))
        .route("/api/challenges/{id}/accept", post(accept))
        .route("/api/challenges/{id}/decline", post(decline))
        .route("/api/challenges/{id}/cancel", post(cancel))
}

/// A challenge to make.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewChallengeRequest {
    pub clock: ClockRequest,
    /// A rated game (default `false`): 8 × 8, between two people or two bots.
    #[serde(default)]
    pub rated: bool,
    /// The challenger's colour (default `random`).
    pub color: Option<ColorWish>,
    /// Files, 4 to 8 (default 8).
    #[serde(default, deserialize_with = "crate::extract::optional_whole_number")]
    #[schema(minimum = 4, maximum = 8)]
    pub width: Option<u8>,
    /// Ranks, 4 to 8 (default 8).
    #[serde(default, deserialize_with = "crate::extract::optional_whole_number")]
    #[schema(minimum = 4, maximum = 8)]
    pub height: Option<u8>,
    /// A preset (code or name) both seats are asked to set up with; it must exist (404).
    #[schema(value_type = Option<crate::schema::PresetRef>)]
    pub preset: Option<String>,
}

/// A decline, with why.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DeclineRequest {
    /// Why (1 to 100 characters; default `generic`). lichess's keys read well: `later`,
    /// `too_fast`, `too_slow`, `time_control`, `rated`, `casual`, `board_size`, `no_bot`,
    /// `only_bot`.
    #[schema(min_length = 1, max_length = 100)]
    pub reason: Option<String>,
}

/// One side of a challenge.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChallengerView {
    #[schema(value_type = UsernameText)]
    pub username: Username,
    /// A bot account.
    pub bot: bool,
    /// The rating now, rounded.
    pub rating: i64,
    /// Whether it is provisional (shown with `?`).
    pub provisional: bool,
}

/// A challenge as both sides see it.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChallengeView {
    #[schema(value_type = Id)]
    pub id: ChallengeId,
    pub challenger: ChallengerView,
    pub challenged: ChallengerView,
    pub clock: SeekClock,
    pub width: u16,
    pub height: u16,
    pub rated: bool,
    /// The challenger's colour as asked.
    pub color: ColorWish,
    /// The preset both seats are asked to set up with, if named.
    pub preset: Option<String>,
    /// `open`, `accepted`, `declined`, `canceled` or `expired`.
    pub status: String,
    /// When it was made and when it expires unanswered (RFC 3339, UTC).
    pub created_at: String,
    pub expires_at: String,
}

/// An accepted challenge: the game, the accepter's seat and token (the challenger's event
/// stream gets `game_start` with its own).
#[derive(Debug, Serialize, ToSchema)]
pub struct AcceptedView {
    #[schema(value_type = Id)]
    pub game: String,
    pub color: Color,
    #[schema(value_type = crate::schema::Token)]
    pub token: String,
}

pub fn party_view(party: &Party) -> ChallengerView {
    let rating = Rating {
        value: party.rating,
        deviation: party.deviation,
        volatility: Rating::NEW.volatility,
    };
    ChallengerView {
        username: party.username.clone(),
        bot: party.bot,
        rating: rating.shown(),
        provisional: rating.provisional(),
    }
}

pub fn challenge_view(challenge: &Challenge) -> ChallengeView {
    let status = match &challenge.state {
        _ if challenge.expired(now()) => "expired",
        ChallengeState::Open => "open",
        ChallengeState::Accepted { .. } => "accepted",
        ChallengeState::Declined { .. } => "declined",
        ChallengeState::Canceled => "canceled",
    };
    ChallengeView {
        id: challenge.id.clone(),
        challenger: party_view(&challenge.challenger),
        challenged: party_view(&challenge.challenged),
        clock: SeekClock {
            initial_ms: challenge.pool.initial,
            increment_ms: challenge.pool.increment,
        },
        width: challenge.pool.width,
        height: challenge.pool.height,
        rated: challenge.pool.rated,
        color: challenge.color,
        preset: challenge.preset.clone(),
        status: status.to_owned(),
        created_at: rfc3339(challenge.created_at),
        expires_at: rfc3339(challenge.expires_at),
    }
}

/// The caller, if it may challenge and answer: a person's session or `play` token, a bot's
/// `bot` token.
pub fn challenger(signed: Signed) -> ApiResult<Caller> {
    let scope = if signed.0.bot {
        Scope::Bot
    } else {
        Scope::Play
    };
    signed.in_scope(scope)
}

/// Challenges `username` to a game → the challenge (it expires after 60 s unanswered). An
/// account has at most 20 open challenges.
#[utoipa::path(post, path = "/api/challenges/{username}", tag = "challenges",
    operation_id = "create_challenge", security(("session" = []), ("bearer" = [])),
    params(("username" = UsernameText, Path, description = "who is challenged (any case)")),
    request_body = NewChallengeRequest,
    responses((status = 201, description = "the challenge", body = ChallengeView),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 404, response = NotFound),
              (status = 409, response = Conflict), (status = 413, response = TooLarge),
              (status = 422, response = Invalid), (status = 429, response = TooManyRequests)))]
pub async fn create(
    _limit: CreationLimit,
    State(state): State<AppState>,
    signed: Signed,
    ApiPath(username): ApiPath<Username>,
    ApiJson(body): ApiJson<NewChallengeRequest>,
) -> ApiResult<(StatusCode, Json<ChallengeView>)> {
    let caller = challenger(signed)?;
    let (initial, increment) = body.clock.millis();
    let request = ChallengeRequest {
        width: body.width,
        height: body.height,
        initial,
        increment,
        wish: body.color.unwrap_or(ColorWish::Random),
        rated: body.rated,
        preset: body.preset,
    };
    let challenges = &state.play.challenges;
    let challenge = challenges.open(&caller, &username, request).await?;
    Ok((StatusCode::CREATED, Json(challenge_view(&challenge))))
}

/// The challenged accepts: the game is made → its id, the caller's seat and token.
#[utoipa::path(post, path = "/api/challenges/{id}/accept", tag = "challenges",
    operation_id = "accept_challenge", security(("session" = []), ("bearer" = [])),
    params(("id" = Id, Path, description = "the challenge's id")),
    responses((status = 200, description = "the game made", body = AcceptedView),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound), (status = 409, response = Conflict),
              (status = 429, response = TooManyRequests)))]
pub async fn accept(
    _limit: CreationLimit,
    State(state): State<AppState>,
    signed: Signed,
    ApiPath(id): ApiPath<ChallengeId>,
) -> ApiResult<Json<AcceptedView>> {
    let caller = challenger(signed)?;
    let accepted = state.play.challenges.accept(&caller, &id).await?;
    Ok(Json(AcceptedView {
        game: accepted.game.to_string(),
        color: accepted.color,
        token: accepted.token,
    }))
}

/// The challenged declines, with a reason (the challenger's stream gets `challenge_declined`).
#[utoipa::path(post, path = "/api/challenges/{id}/decline", tag = "challenges",
    operation_id = "decline_challenge", security(("session" = []), ("bearer" = [])),
    params(("id" = Id, Path, description = "the challenge's id")),
    request_body(content = DeclineRequest, description = "optional: an empty body declines \
with `generic`"),
    responses((status = 204, description = "declined"),
              (status = 400, response = BadRequest), (status = 401, response = Unauthorized),
              (status = 403, response = Forbidden), (status = 404, response = NotFound),
              (status = 409, response = Conflict), (status = 413, response = TooLarge),
              (status = 422, response = Invalid)))]
pub async fn decline(
    State(state): State<AppState>,
    signed: Signed,
    ApiPath(id): ApiPath<ChallengeId>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<StatusCode> {
    let caller = challenger(signed)?;
    let body: DeclineRequest = match body {
        Ok(bytes) if bytes.is_empty() => DeclineRequest::default(),
        Ok(bytes) => from_json(&bytes)?,
        Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return Err(too_large());
        }
        Err(rejection) => {
            return Err(ApiError::bad_request(
                ServiceCode::BadBody,
                rejection.body_text(),
            ));
        }
    };
    let challenges = &state.play.challenges;
    challenges
        .decline(&caller, &id, body.reason.as_deref())
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The challenger cancels (the challenged's stream gets `challenge_canceled`).
#[utoipa::path(post, path = "/api/challenges/{id}/cancel", tag = "challenges",
    operation_id = "cancel_challenge", security(("session" = []), ("bearer" = [])),
    params(("id" = Id, Path, description = "the challenge's id")),
    responses((status = 204, description = "canceled"),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound), (status = 409, response = Conflict)))]
pub async fn cancel(
    State(state): State<AppState>,
    signed: Signed,
    ApiPath(id): ApiPath<ChallengeId>,
) -> ApiResult<StatusCode> {
    let caller = challenger(signed)?;
    state.play.challenges.cancel(&caller, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}
