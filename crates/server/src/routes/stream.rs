//! `GET /api/games/{id}/stream`: NDJSON. The first line is the game as the caller may see it,
//! then one line per change, `{"type", "version", "ply"?, "game"}`; the stream closes after the
//! end (or when the server stops).

use crate::app::AppState;
use crate::error::ApiResult;
use crate::extract::{ApiPath, MaybeBearer};
use crate::games;
use crate::hub::{LineType, Subscription, Update};
use crate::routes::doc::{Forbidden, NotFound, Unauthorized};
use crate::schema::Id;
use crate::time::now_ms;
use crate::views::{GameView, game_view};
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use gmo_engine::{PlyView, Viewer};
use serde::Serialize;
use std::collections::VecDeque;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::watch;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}/stream", get(stream))
}

/// One line of a game's stream: the first is the game as the caller may see it, every later one
/// a change.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum StreamLine {
    View(GameView),
    Change(ChangeLine),
}

/// A change of the game, with the game as the caller may see it afterwards.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ChangeLine {
    #[serde(rename = "type")]
    pub kind: LineType,
    /// The game's version after the change (it only grows).
    pub version: i64,
    /// On `move` and `promotion` lines: the ply as the caller may see it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<PlyView>,
    pub game: GameView,
}

/// Follows a game live: NDJSON, one JSON object per line; it closes after the end.
#[utoipa::path(get, path = "/api/games/{id}/stream", tag = "games", operation_id = "stream_game",
    security(("bearer" = []), ()), params(("id" = Id, Path, description = "the game's id")),
    responses((status = 200, content_type = "application/x-ndjson", body = StreamLine,
               description = "newline-delimited JSON: first the game view, then one change line \
per change (`type`: move, promotion, setup, start, clock, end, resync); the stream closes after \
the end"),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound)))]
pub async fn stream(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    MaybeBearer(token): MaybeBearer,
) -> ApiResult<Response> {
    // Find and authorise first: only a game someone may watch gets a channel in the hub.
    let stored = games::load(&state, &id).await?;
    let viewer = games::viewer_of_token(&state, &stored, token.as_deref()).await?;
    // Then subscribe and look again (one version read when unchanged), so that no change
    // committed between the first load and the subscription is missed.
    let updates = state.hub.subscribe(&id);
    let stored = games::load(&state, &id).await?;
    let mut follow = Follow {
        closing: state.closing.clone(),
        state,
        id,
        viewer,
        updates,
        version: stored.version,
        lines: VecDeque::new(),
        done: stored.state.is_over(),
    };
    let first = game_view(&follow.id, &stored.state, viewer, now_ms());
    follow.lines.push_back(line_of(&StreamLine::View(first)));
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

/// One viewer's stream.
struct Follow {
    state: AppState,
    id: String,
    viewer: Viewer,
    updates: Subscription,
    /// The last version shown: an update at or below it was seen already.
    version: i64,
    lines: VecDeque<Bytes>,
    done: bool,
    closing: watch::Receiver<bool>,
}

impl Follow {
    async fn next(mut self) -> Option<(Result<Bytes, std::convert::Infallible>, Follow)> {
        loop {
            if let Some(line) = self.lines.pop_front() {
                return Some((Ok(line), self));
            }
            if self.done {
                return None;
            }
            let received = tokio::select! {
                received = self.updates.recv() => received,
                _ = self.closing.wait_for(|closing| *closing) => return None,
            };
            self.take(received).await;
        }
    }

    async fn take(&mut self, received: Result<Arc<Update>, RecvError>) {
        match received {
            Ok(update) if update.version > self.version => self.show(&update),
            Ok(_) => {}
            Err(RecvError::Lagged(_)) => self.resync().await,
            Err(RecvError::Closed) => self.done = true,
        }
    }

    fn show(&mut self, update: &Update) {
        self.version = update.version;
        let game = game_view(&self.id, &update.game, self.viewer, now_ms());
        for &kind in &update.kinds {
            let ply = match kind {
                LineType::Move | LineType::Promotion => update.ply.for_viewer(self.viewer),
                _ => None,
            };
            let line = StreamLine::Change(ChangeLine {
                kind,
                version: update.version,
                ply: ply.cloned(),
                game: game.clone(),
            });
            self.lines.push_back(line_of(&line));
        }
        self.done = update.game.is_over();
    }

    /// Fell behind the channel: show the game as it is now.
    async fn resync(&mut self) {
        match games::load(&self.state, &self.id).await {
            Ok(stored) => {
                let update = Update {
                    version: stored.version,
                    kinds: vec![LineType::Resync],
                    ply: Default::default(),
                    game: stored.state,
                };
                self.show(&update);
            }
            Err(error) => {
                tracing::warn!(game = self.id, ?error, "stream could not resynchronise");
                self.done = true;
            }
        }
    }
}

fn line_of(line: &StreamLine) -> Bytes {
    let mut text = serde_json::to_vec(line).unwrap_or_default();
    text.push(b'\n');
    Bytes::from(text)
}
