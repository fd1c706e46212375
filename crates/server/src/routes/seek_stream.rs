//! `GET /api/seeks/{id}/stream`: NDJSON for the seeker. `waiting` every couple of seconds while
//! the seek is open (each one also shows the seek alive and looks for a match again), then
//! `paired` with the game, the seat and its token, or `withdrawn`; then it closes. A seek whose
//! stream has been gone for more than 10 s is withdrawn by the sweep.

use crate::error::ApiResult;
use crate::extract::{ApiPath, Bearer};
use crate::responses::{Conflict, Forbidden, NotFound, Unauthorized};
use crate::schema::Id;
use crate::state::AppState;
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use gmo_engine::Color;
use gmo_play::lobby::{Follow, Looked, TICK, Woke};
use gmo_types::{Millis, SeekId};
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
    #[schema(value_type = Option<i64>)]
    pub age_ms: Option<Millis>,
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
    let follow = state.play.lobby.follow(&id, &token).await?;
    let mut ticks = tokio::time::interval(TICK);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let wait = Wait {
        closing: state.closing.clone(),
        follow,
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
    follow: Follow,
    ticks: Interval,
    lines: VecDeque<Bytes>,
    done: bool,
    closing: watch::Receiver<bool>,
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
            let bell = self.follow.bell();
            let woke = tokio::select! {
                _ = bell.notified() => Woke::Bell,
                _ = self.ticks.tick() => Woke::Tick,
                _ = self.closing.wait_for(|closing| *closing) => return None,
            };
            match self.follow.look(woke).await {
                Ok(looked) => self.show(looked),
                Err(error) => {
                    tracing::warn!(seek = %self.follow.id(), ?error, "seek stream could not look");
                }
            }
        }
    }

    /// The line of where the seek stands, if anything changed.
    fn show(&mut self, looked: Looked) {
        let line = match looked {
            Looked::Unchanged => return,
            Looked::Waiting { age } => SeekLine {
                kind: SeekLineType::Waiting,
                age_ms: Some(age),
                game: None,
                seat: None,
                token: None,
            },
            Looked::Paired { game, seat, token } => SeekLine {
                game: Some(game.to_string()),
                seat: Some(seat),
                token: Some(token),
                ..self.end(SeekLineType::Paired)
            },
            Looked::Withdrawn => self.end(SeekLineType::Withdrawn),
        };
        let mut text = serde_json::to_vec(&line).unwrap_or_default();
        text.push(b'\n');
        self.lines.push_back(Bytes::from(text));
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
