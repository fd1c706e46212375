//! `GET /api/games/{id}/stream`: NDJSON. The first line is the game as the caller may see it,
//! then one line per change, `{"type", "version", "ply"?, "game"}`; the stream closes after the
//! end (or when the server stops).

use crate::app::AppState;
use crate::error::ApiResult;
use crate::extract::{ApiPath, MaybeBearer};
use crate::games;
use crate::hub::{LineType, RematchNews, Subscription, Update};
use crate::keys::GameId;
use crate::record::plies_seen;
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
use gmo_engine::{Color, Game, PlyView, Viewer};
use gmo_store::Joined;
use serde::Serialize;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::watch;
use tokio::time::Instant;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}/stream", get(stream))
}

/// One line of a game's stream: the first is the game as the caller may see it, every later one
/// a change.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum StreamLine {
    View(StreamStart),
    Change(ChangeLine),
    RematchOffer(RematchOfferLine),
    Rematch(RematchLine),
}

/// After the end, on a seat's stream: a seat asked for a rematch.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct RematchOfferLine {
    /// `rematch_offer`.
    #[serde(rename = "type")]
    pub kind: LineType,
    /// The seat that asked.
    pub color: Color,
}

/// After the end, on a seat's stream: both seats asked, the new game has started (colours
/// swapped). The stream closes after this line.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct RematchLine {
    /// `rematch`.
    #[serde(rename = "type")]
    pub kind: LineType,
    /// The new game's id.
    #[schema(value_type = crate::schema::Id)]
    pub game: String,
    /// This seat's token in the new game (the token of its seat there, the other colour).
    #[schema(value_type = crate::schema::Token)]
    pub token: String,
}

/// The first line: the game as the caller may see it, with every ply so far.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct StreamStart {
    #[serde(flatten)]
    pub game: GameView,
    /// Every ply so far as the caller may see it, oldest first (as `GET /api/games/{id}/plies`).
    pub plies: Vec<PlyView>,
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
               description = "newline-delimited JSON: first the game view with every ply so far \
(`plies`), then one line per change (`type`: move, promotion, setup, start, clock, end, resync, \
draw_offer, draw_declined, draw_agreed, joined, rematch_offer, rematch); the stream closes after the end, or after the \
rematch line once both seats asked for one"),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound)))]
pub async fn stream(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<GameId>,
    MaybeBearer(token): MaybeBearer,
) -> ApiResult<Response> {
    // Find and authorise first: only a game someone may watch gets a channel in the hub.
    let stored = games::load(&state, &id).await?;
    let viewer = games::viewer_of_token(&state, &stored, token.as_deref()).await?;
    // Then subscribe and look again (one version read when unchanged), so that no change
    // committed between the first load and the subscription is missed.
    let updates = state.hub.subscribe(&id);
    let stored = games::load(&state, &id).await?;
    // A seat's stream opened after the end waits for the rematch (a bounded time).
    let over = stored.state.is_over();
    let seat_token = token.filter(|_| matches!(viewer, Viewer::Player(_)));
    let waits = over && seat_token.is_some();
    let rematch = if waits {
        Some(state.store.rematch(&id).await?)
    } else {
        None
    };
    let mut follow = Follow {
        closing: state.closing.clone(),
        state,
        id: id.into(),
        viewer,
        updates,
        version: stored.version,
        lines: VecDeque::new(),
        done: over && !waits,
        seat_token,
        until: waits.then(|| Instant::now() + REMATCH_WAIT),
        offers: Vec::new(),
        joined: games::joined(&stored),
        game: stored.state.clone(),
    };
    let first = StreamStart {
        game: game_view(&follow.id, &stored.state, follow.joined, viewer, now_ms()),
        plies: plies_seen(&stored.state, viewer)?,
    };
    follow.lines.push_back(line_of(&StreamLine::View(first)));
    if let Some(rematch) = rematch {
        follow.rematch_so_far(&rematch);
    }
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
    /// The caller's token, when it holds a seat: its rematch token is derived from it.
    seat_token: Option<String>,
    /// After the end, until when a seat's stream waits for the rematch.
    until: Option<Instant>,
    /// The seats whose rematch offer this stream has shown.
    offers: Vec<Color>,
    /// The seats this stream has shown as taken (they only ever turn on).
    joined: Joined,
    /// The game as this stream last showed it.
    game: Arc<Game>,
}

/// How long a seat's stream opened after the end stays open for the rematch.
pub const REMATCH_WAIT: Duration = Duration::from_secs(600);

impl Follow {
    async fn next(mut self) -> Option<(Result<Bytes, std::convert::Infallible>, Follow)> {
        loop {
            if let Some(line) = self.lines.pop_front() {
                return Some((Ok(line), self));
            }
            if self.done {
                return None;
            }
            let until = self.until;
            let waited = async move {
                match until {
                    Some(until) => tokio::time::sleep_until(until).await,
                    None => std::future::pending().await,
                }
            };
            let received = tokio::select! {
                received = self.updates.recv() => received,
                _ = self.closing.wait_for(|closing| *closing) => return None,
                () = waited => return None,
            };
            self.take(received).await;
        }
    }

    async fn take(&mut self, received: Result<Arc<Update>, RecvError>) {
        match received {
            Ok(update) if update.rematch.is_some() => self.news(update.rematch.as_ref()),
            Ok(update) if update.is_join() => self.joined(update.joined),
            Ok(update) if update.version > self.version => self.show(&update),
            Ok(_) => {}
            Err(RecvError::Lagged(_)) => self.resync().await,
            Err(RecvError::Closed) => self.done = true,
        }
    }

    fn show(&mut self, update: &Update) {
        self.version = update.version;
        self.joined = self.joined.union(update.joined);
        self.game = update.game.clone();
        let game = game_view(&self.id, &update.game, self.joined, self.viewer, now_ms());
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

    /// A seat joined: a `joined` line with the game as last shown, unless this stream has shown
    /// that seat as taken already.
    fn joined(&mut self, joined: Joined) {
        let now = self.joined.union(joined);
        if now == self.joined {
            return;
        }
        self.joined = now;
        let line = StreamLine::Change(ChangeLine {
            kind: LineType::Joined,
            version: self.version,
            ply: None,
            game: game_view(&self.id, &self.game, now, self.viewer, now_ms()),
        });
        self.lines.push_back(line_of(&line));
    }

    /// The rematch as it stood when the stream opened after the end.
    fn rematch_so_far(&mut self, rematch: &gmo_store::Rematch) {
        for (color, asked) in [(Color::White, rematch.white), (Color::Black, rematch.black)] {
            if asked {
                self.news(Some(&RematchNews::Asked(color)));
            }
        }
        if let Some(game) = &rematch.game {
            self.news(Some(&RematchNews::Started(game.clone())));
        }
    }

    /// Rematch news, for a seat's stream waiting after the end (others ignore it).
    fn news(&mut self, news: Option<&RematchNews>) {
        let (Some(news), Some(token), Some(_)) = (news, &self.seat_token, self.until) else {
            return;
        };
        let line = match news {
            RematchNews::Asked(color) if !self.offers.contains(color) => {
                self.offers.push(*color);
                StreamLine::RematchOffer(RematchOfferLine {
                    kind: LineType::RematchOffer,
                    color: *color,
                })
            }
            RematchNews::Asked(_) => return,
            RematchNews::Started(game) => {
                self.done = true;
                StreamLine::Rematch(RematchLine {
                    kind: LineType::Rematch,
                    game: game.clone(),
                    token: gmo_store::rematch_token(token, &self.id),
                })
            }
        };
        self.lines.push_back(line_of(&line));
    }

    /// Fell behind the channel: show the game as it is now.
    async fn resync(&mut self) {
        match games::load(&self.state, &self.id).await {
            Ok(stored) => {
                let update = Update {
                    version: stored.version,
                    kinds: vec![LineType::Resync],
                    ply: Default::default(),
                    joined: games::joined(&stored),
                    game: stored.state,
                    rematch: None,
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
