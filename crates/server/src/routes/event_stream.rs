//! `GET /api/stream/event`: an account's NDJSON event stream (issue 33, lichess's shape). First
//! every open challenge (made or received) and every game in progress of the account's
//! challenges, then each change as it happens, on whichever process it happened: `challenge`,
//! `challenge_canceled`, `challenge_declined`, `game_start` (with the seat's token) and
//! `game_finish`. At most 4 open per account, counted across processes.

use super::challenges::{ChallengeView, challenge_view, challenger};
use crate::error::ApiResult;
use crate::responses::{Conflict, Forbidden, Unauthorized};
use crate::signed::Signed;
use crate::state::AppState;
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use gmo_engine::{Color, GameStatus, Reason};
use gmo_play::challenges::{Feed, FeedEvent, TICK};
use gmo_types::ChallengeId;
use serde::Serialize;
use std::collections::VecDeque;
use tokio::sync::watch;
use tokio::time::Interval;
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/stream/event", get(stream))
}

/// What a line of the event stream says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EventLineType {
    /// An open challenge, made or received (`challenge`).
    Challenge,
    /// The challenger canceled it, or it expired unanswered (`id`, `reason`).
    ChallengeCanceled,
    /// The challenged declined it (`id`, `reason`).
    ChallengeDeclined,
    /// A game of the account began (`game`: id, colour, seat token).
    GameStart,
    /// A game of the account ended (`game`: id, status, reason).
    GameFinish,
}

/// A game on the event stream.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventGame {
    #[schema(value_type = crate::schema::Id)]
    pub id: String,
    /// On `game_start`: the account's seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<Color>,
    /// On `game_start`: the seat's token, for the game's routes.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::schema::Token>)]
    pub token: Option<String>,
    /// On `game_finish`: how it ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<GameStatus>,
    /// On `game_finish`: why (`null` when nothing more is said).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    pub reason: Option<Option<Reason>>,
}

/// One line of the event stream.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventLine {
    #[serde(rename = "type")]
    pub kind: EventLineType,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub challenge: Option<ChallengeView>,
    /// On `challenge_canceled` and `challenge_declined`: the challenge's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::schema::Id>)]
    pub id: Option<ChallengeId>,
    /// On `challenge_canceled`: `canceled` or `expired`; on `challenge_declined`: the
    /// challenged's reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<EventGame>,
}

/// The caller's event stream: NDJSON, one JSON object per line.
#[utoipa::path(get, path = "/api/stream/event", tag = "challenges",
    operation_id = "stream_events", security(("session" = []), ("bearer" = [])),
    responses((status = 200, content_type = "application/x-ndjson", body = EventLine,
               description = "newline-delimited JSON: first every open challenge and game in \
progress, then each change; it stays open"),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 409, response = Conflict)))]
pub async fn stream(State(state): State<AppState>, signed: Signed) -> ApiResult<Response> {
    let caller = challenger(signed)?;
    let feed = state.play.challenges.feed(&caller).await?;
    let mut ticks = tokio::time::interval(TICK);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let follow = Follow {
        closing: state.closing.clone(),
        feed,
        ticks,
        lines: VecDeque::new(),
    };
    let body = Body::from_stream(futures_util::stream::unfold(follow, Follow::next));
    Ok((
        [
            (CONTENT_TYPE, "application/x-ndjson"),
            (CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response())
}

/// One account's stream.
struct Follow {
    feed: Feed,
    ticks: Interval,
    lines: VecDeque<Bytes>,
    closing: watch::Receiver<bool>,
}

impl Follow {
    async fn next(mut self) -> Option<(Result<Bytes, std::convert::Infallible>, Follow)> {
        loop {
            if let Some(line) = self.lines.pop_front() {
                return Some((Ok(line), self));
            }
            tokio::select! {
                _ = self.ticks.tick() => {},
                _ = self.feed.rung() => {},
                _ = self.closing.wait_for(|closing| *closing) => return None,
            }
            match self.feed.look().await {
                Ok(events) => self.lines.extend(events.into_iter().map(line)),
                Err(error) => tracing::warn!(?error, "an event stream could not look"),
            }
        }
    }
}

/// The NDJSON line of `event`.
fn line(event: FeedEvent) -> Bytes {
    let blank = |kind| EventLine {
        kind,
        challenge: None,
        id: None,
        reason: None,
        game: None,
    };
    let game = |id: String| EventGame {
        id,
        color: None,
        token: None,
        status: None,
        reason: None,
    };
    let shown = match event {
        FeedEvent::Challenge(challenge) => EventLine {
            challenge: Some(challenge_view(&challenge)),
            ..blank(EventLineType::Challenge)
        },
        FeedEvent::Canceled { id, expired } => EventLine {
            id: Some(id),
            reason: Some(if expired { "expired" } else { "canceled" }.to_owned()),
            ..blank(EventLineType::ChallengeCanceled)
        },
        FeedEvent::Declined { id, reason } => EventLine {
            id: Some(id),
            reason: Some(reason),
            ..blank(EventLineType::ChallengeDeclined)
        },
        FeedEvent::GameStart {
            game: id,
            color,
            token,
        } => EventLine {
            game: Some(EventGame {
                color: Some(color),
                token: Some(token),
                ..game(id.to_string())
            }),
            ..blank(EventLineType::GameStart)
        },
        FeedEvent::GameFinish {
            game: id,
            status,
            reason,
        } => EventLine {
            game: Some(EventGame {
                status: Some(status),
                reason: Some(reason),
                ..game(id.to_string())
            }),
            ..blank(EventLineType::GameFinish)
        },
    };
    let mut text = serde_json::to_vec(&shown).unwrap_or_default();
    text.push(b'\n');
    Bytes::from(text)
}
