//! `GET /api/seeks/{id}/stream`: NDJSON for the seeker. `waiting` every couple of seconds while
//! the seek is open (each one also shows the seek alive and looks for a match again), then
//! `paired` with the game, the seat and its token, or `withdrawn`; then it closes. A seek whose
//! stream has been gone for more than 10 s is withdrawn by the sweep.

use super::seeks::{owned, pair};
use crate::app::AppState;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ServiceCode;
use crate::extract::{ApiPath, Bearer};
use crate::keys::SeekId;
use crate::lobby::{MAX_OPEN_MS, Ringer, TICK, seat_token_of};
use crate::routes::doc::{Conflict, Forbidden, NotFound, Unauthorized};
use crate::schema::Id;
use crate::time::now_ms;
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use gmo_engine::Color;
use gmo_store::{Pool, SeekState};
use serde::Serialize;
use std::collections::VecDeque;
use tokio::sync::watch;
use tokio::time::Interval;
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/seeks/{id}/stream", get(stream))
}

/// What a line of a seek's stream says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SeekLineType {
    /// The seek is open (the line carries `age_ms`).
    Waiting,
    /// The seek was paired (the line carries `game`, `seat` and `token`); the stream closes.
    Paired,
    /// The seek was withdrawn (by its owner, after its stream was gone 10 s, or after 30
    /// minutes open); the stream closes.
    Withdrawn,
}

/// One line of a seek's stream.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeekLine {
    #[serde(rename = "type")]
    pub kind: SeekLineType,
    /// On `waiting`: how long the seek has been open, in ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub age_ms: Option<i64>,
    /// On `paired`: the game's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::schema::Id>)]
    pub game: Option<String>,
    /// On `paired`: the seeker's seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<Color>,
    /// On `paired`: the seeker's seat token, for the game's routes.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::schema::Token>)]
    pub token: Option<String>,
}

/// Follows one's seek until it is paired: NDJSON, one JSON object per line.
#[utoipa::path(get, path = "/api/seeks/{id}/stream", tag = "lobby", operation_id = "stream_seek",
    params(("id" = Id, Path, description = "the seek's id")), security(("bearer" = [])),
    responses((status = 200, content_type = "application/x-ndjson", body = SeekLine,
               description = "newline-delimited JSON: `waiting` lines every 2 s while the seek is \
open, then one `paired` line (game, seat, token) or `withdrawn` line; then the stream closes"),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound), (status = 409, response = Conflict)))]
pub async fn stream(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<SeekId>,
    Bearer(token): Bearer,
) -> ApiResult<Response> {
    let seek = owned(&state, &id, &token).await?;
    let ringer = state.seeks.hold(&id).ok_or_else(|| {
        ApiError::conflict(
            ServiceCode::TooManyStreams,
            "this seek has as many streams open as it may; close one",
        )
    })?;
    let mut ticks = tokio::time::interval(TICK);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let wait = Wait {
        closing: state.closing.clone(),
        state,
        id: id.into(),
        seat_token: seat_token_of(&token),
        pool: seek.pool,
        created_ms: seek.created_ms,
        ringer,
        ticks,
        lines: VecDeque::new(),
        done: false,
    };
    let body = Body::from_stream(futures_util::stream::unfold(wait, Wait::next));
    Ok((
        [
            (CONTENT_TYPE, "application/x-ndjson"),
            (CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response())
}

/// One seeker's stream.
struct Wait {
    state: AppState,
    id: String,
    seat_token: String,
    pool: Pool,
    created_ms: i64,
    ringer: Ringer,
    ticks: Interval,
    lines: VecDeque<Bytes>,
    done: bool,
    closing: watch::Receiver<bool>,
}

enum Woke {
    Tick,
    Bell,
}

impl Wait {
    async fn next(mut self) -> Option<(Result<Bytes, std::convert::Infallible>, Wait)> {
        loop {
            if let Some(line) = self.lines.pop_front() {
                return Some((Ok(line), self));
            }
            if self.done {
                return None;
            }
            let notify = self.ringer.notify.clone();
            let woke = tokio::select! {
                _ = notify.notified() => Woke::Bell,
                _ = self.ticks.tick() => Woke::Tick,
                _ = self.closing.wait_for(|closing| *closing) => return None,
            };
            if let Err(error) = self.look(woke).await {
                tracing::warn!(seek = self.id, ?error, "seek stream could not look");
            }
        }
    }

    /// On a tick: expire, show alive, pair again if a match is open, say `waiting`. On the bell:
    /// read where the seek stands.
    async fn look(&mut self, woke: Woke) -> ApiResult<()> {
        let now = now_ms();
        let seek = match woke {
            Woke::Tick if now - self.created_ms > MAX_OPEN_MS => {
                self.state.store.withdraw_seek(&self.id).await?
            }
            Woke::Tick => {
                self.state.store.pulse_seek(&self.id, now).await?;
                pair(&self.state, &self.id, self.pool).await?
            }
            Woke::Bell => match self.state.store.seek(&self.id).await? {
                None => SeekState::Gone,
                Some(seek) => match seek.paired {
                    Some((game, seat)) => SeekState::Paired { game, seat },
                    None => return Ok(()),
                },
            },
        };
        let line = match seek {
            // Past its time and open: withdrawn just now.
            SeekState::Open if now - self.created_ms > MAX_OPEN_MS => {
                self.end(SeekLineType::Withdrawn)
            }
            SeekState::Open => SeekLine {
                kind: SeekLineType::Waiting,
                age_ms: Some((now - self.created_ms).max(0)),
                game: None,
                seat: None,
                token: None,
            },
            SeekState::Paired { game, seat } => SeekLine {
                game: Some(game),
                seat: Some(seat),
                token: Some(self.seat_token.clone()),
                ..self.end(SeekLineType::Paired)
            },
            SeekState::Gone => self.end(SeekLineType::Withdrawn),
        };
        let mut text = serde_json::to_vec(&line).unwrap_or_default();
        text.push(b'\n');
        self.lines.push_back(Bytes::from(text));
        Ok(())
    }

    /// The last line, of `kind`.
    fn end(&mut self, kind: SeekLineType) -> SeekLine {
        self.done = true;
        SeekLine {
            kind,
            age_ms: None,
            game: None,
            seat: None,
            token: None,
        }
    }
}
