//! `GET /api/games/{id}/stream`: NDJSON. The first line is the game as the caller may see it,
//! then one line per change, `{"type", "version", "ply"?, "game"}` (`crate::lines`); the stream
//! closes after the end (or when the server stops).

use crate::error::ApiError;
use crate::error::ApiResult;
use crate::error_code::ServiceCode;
use crate::extract::{ApiPath, MaybeBearer};
use crate::lines::{
    LaggedLine, LineType, StreamLine, StreamStart, change_lines, compact, joined_line,
    presence_line, rematch_line,
};
use crate::record::plies_seen;
use crate::responses::{Forbidden, Invalid, NotFound, Unauthorized};
use crate::schema::Id;
use crate::state::AppState;
use crate::views::{Who, seen_view};
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{RawQuery, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use gmo_engine::{Color, Game, PieceView, Viewer};
use gmo_play::{Games, Happened, Missed, Presence, Subscription, Update, now};
use gmo_store::{Joined, Rematch};
use gmo_types::{ByColor, GameId};
use std::collections::VecDeque;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;
use tokio::time::{Instant, Interval};

pub fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}/stream", get(stream))
}

/// How long a seat's stream opened after the end stays open for the rematch.
pub const REMATCH_WAIT: Duration = Duration::from_secs(600);

/// Follows a game live: NDJSON, one JSON object per line; it closes after the end. With
/// `?presence=true` it also says whether each player is there (a seat's stream shows its player
/// there while it is open).
#[utoipa::path(get, path = "/api/games/{id}/stream", tag = "games", operation_id = "stream_game",
    security(("bearer" = []), ()), params(("id" = Id, Path, description = "the game's id"),
    ("presence" = Option<crate::schema::PresenceFlag>, Query, description = "`true`: `presence` lines after the first \
line and whenever a player comes or goes (default `false`)"),
    ("lines" = Option<crate::schema::LinesMode>, Query, description = "`compact`: after the first \
line, each change carries only what changed — the ply, the squares whose contents changed, the \
clocks, the side to move, the status (default `full`: the game view on every line)")),
    responses((status = 200, content_type = "application/x-ndjson", body = StreamLine,
               description = "newline-delimited JSON: first the game view with every ply so far \
(`plies`), then one line per change (`type`: move, promotion, setup, start, clock, end, resync, \
draw_offer, draw_declined, draw_agreed, joined, rematch_offer, rematch, and presence when asked); the stream closes after \
the end, or after the rematch line once both seats asked for one"),
              (status = 401, response = Unauthorized), (status = 403, response = Forbidden),
              (status = 404, response = NotFound), (status = 422, response = Invalid)))]
pub async fn stream(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<GameId>,
    MaybeBearer(token): MaybeBearer,
    RawQuery(query): RawQuery,
) -> ApiResult<Response> {
    let wants = wants(query.as_deref().unwrap_or(""))?;
    let watch = state.play.games.watch(&id, token.as_deref()).await?;
    let seen = watch.seen;
    // A seat's stream opened after the end waits for the rematch (a bounded time).
    let over = seen.game.is_over();
    let rematch_token = watch
        .rematch
        .as_ref()
        .and(token.as_deref())
        .map(|token| gmo_play::rematch_token(token, &id));
    let mut follow = Follow {
        games: state.play.games.clone(),
        closing: state.closing.clone(),
        id,
        viewer: seen.viewer,
        updates: watch.updates,
        version: seen.version,
        lines: VecDeque::new(),
        done: over && rematch_token.is_none(),
        until: rematch_token
            .as_ref()
            .map(|_| Instant::now() + REMATCH_WAIT),
        rematch_token,
        offers: Vec::new(),
        joined: seen.joined,
        game: seen.game.clone(),
        presence: None,
        compact: None,
        kind: kind_of(seen.viewer, wants.compact, &Who::of(&seen)),
        who: Who::of(&seen),
    };
    let first = StreamStart {
        game: seen_view(&seen, now()),
        plies: plies_seen(&seen.game, seen.viewer)?,
    };
    follow.push(&StreamLine::View(first));
    if let Some(rematch) = &watch.rematch {
        follow.rematch_so_far(rematch);
    }
    if wants.compact {
        follow.compact = Some(Arc::new(seen_view(&seen, now()).board));
    }
    if wants.presence && !follow.done {
        let mut ticks = tokio::time::interval(follow.games.presence_tick());
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        follow.presence = Some(Presences { ticks, shown: None });
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

/// What sets a stream's renderings apart: its viewer, compact lines or not, who plays as it
/// shows them.
fn kind_of(viewer: Viewer, compact: bool, who: &Who) -> u64 {
    let mut kind = DefaultHasher::new();
    (
        format!("{viewer:?}"),
        compact,
        format!("{:?}", who.players),
        who.rated,
    )
        .hash(&mut kind);
    kind.finish()
}

/// What a stream's query asks for: presence lines, compact lines.
#[derive(Debug, Default, PartialEq, Eq)]
struct Wants {
    presence: bool,
    compact: bool,
}

/// `presence=true|false` and `lines=full|compact` out of the query string (absent: false,
/// full); anything else is refused, naming the parameter.
fn wants(query: &str) -> ApiResult<Wants> {
    let mut wants = Wants::default();
    let mut seen = (false, false);
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        match pair {
            "presence=true" | "presence=false" if !seen.0 => {
                seen.0 = true;
                wants.presence = pair == "presence=true";
            }
            "lines=full" | "lines=compact" if !seen.1 => {
                seen.1 = true;
                wants.compact = pair == "lines=compact";
            }
            other => {
                let shown: String = other.chars().take(40).collect();
                return Err(ApiError::invalid(
                    ServiceCode::InvalidField,
                    format!(
                        "the stream takes presence=true|false and lines=full|compact, each once; \
                         got {shown:?}"
                    ),
                ));
            }
        }
    }
    Ok(wants)
}

/// What a stream does once it fell behind its game's channel.
enum Behind {
    /// Close after this last line (a compact stream: its reader reads the game again).
    Drop(Box<StreamLine>),
    /// Show the game as it is now (a full stream, as it always did).
    Resync,
}

/// What a stream that last showed `version` does once it fell behind: a compact one is dropped
/// with a line saying so — never buffered without bound — and a full one resynchronises.
fn behind(compact: bool, version: i64) -> Behind {
    if compact {
        Behind::Drop(Box::new(StreamLine::Lagged(LaggedLine {
            kind: LineType::Lagged,
            last_version: version,
        })))
    } else {
        Behind::Resync
    }
}

/// Appends `line` and its newline to `bytes`.
fn encode(line: &StreamLine, bytes: &mut Vec<u8>) {
    if serde_json::to_writer(&mut *bytes, line).is_ok() {
        bytes.push(b'\n');
    }
}

/// What woke a stream.
enum Woke {
    Update(Result<Arc<Update>, Missed>),
    Presence,
}

/// A stream's presence lines: its ticks, and what it showed last.
struct Presences {
    ticks: Interval,
    shown: Option<ByColor<Presence>>,
}

/// One viewer's stream.
struct Follow {
    games: Games,
    id: GameId,
    viewer: Viewer,
    updates: Subscription,
    /// The last version shown: an update at or below it was seen already.
    version: i64,
    lines: VecDeque<Bytes>,
    done: bool,
    closing: watch::Receiver<bool>,
    /// After the end, until when a seat's stream waits for the rematch.
    until: Option<Instant>,
    /// The seat's token in the rematch, for a seat's stream opened after the end.
    rematch_token: Option<String>,
    /// The seats whose rematch offer this stream has shown.
    offers: Vec<Color>,
    /// The seats this stream has shown as taken (they only ever turn on).
    joined: Joined,
    /// The game as this stream last showed it.
    game: Arc<Game>,
    /// Whether each player is there, for a stream that asked.
    presence: Option<Presences>,
    /// Who plays, as the stream first showed it.
    who: Who,
    /// On a compact stream: the board as its last line left it.
    compact: Option<Arc<Vec<PieceView>>>,
    /// What sets this stream's rendering of an update apart from another's besides the version
    /// it showed last (its viewer, its kind of lines, who plays as it showed them).
    kind: u64,
}

/// One update's lines for one kind of stream at one version, rendered once for all of them.
struct Rendering {
    bytes: Bytes,
    /// On compact streams: the board as the lines leave it.
    board: Option<Arc<Vec<PieceView>>>,
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
            let until = self.until;
            let waited = async move {
                match until {
                    Some(until) => tokio::time::sleep_until(until).await,
                    None => std::future::pending().await,
                }
            };
            let presence = &mut self.presence;
            let presence_tick = async move {
                match presence {
                    Some(presence) => {
                        presence.ticks.tick().await;
                    }
                    None => std::future::pending().await,
                }
            };
            let woke = tokio::select! {
                received = self.updates.recv() => Woke::Update(received),
                () = presence_tick => Woke::Presence,
                _ = self.closing.wait_for(|closing| *closing) => return None,
                () = waited => return None,
            };
            match woke {
                Woke::Update(received) => self.take(received).await,
                Woke::Presence => self.look_at_presence().await,
            }
        }
    }

    async fn take(&mut self, received: Result<Arc<Update>, Missed>) {
        match received {
            Ok(update) if update.is_news() => {
                for news in &update.happened {
                    self.news(news, update.joined);
                }
            }
            Ok(update) if update.version > self.version => self.show(&update),
            Ok(_) => {}
            Err(Missed::Lagged(_)) => match behind(self.compact.is_some(), self.version) {
                Behind::Drop(last) => {
                    self.push(&last);
                    self.done = true;
                }
                Behind::Resync => self.resync().await,
            },
            Err(Missed::Closed) => self.done = true,
        }
    }

    fn show(&mut self, update: &Update) {
        let from = self.version;
        self.version = update.version;
        self.joined = self.joined.union(update.joined);
        self.game = update.game.clone();
        // Streams of one kind that showed the same version before see the same lines: the first
        // renders them, the others send the same bytes.
        let mut key = DefaultHasher::new();
        (self.kind, from, self.joined).hash(&mut key);
        let rendered = update
            .rendered
            .get_or_render(key.finish(), || self.render(update));
        if let Some(rendering) = rendered {
            self.lines.push_back(rendering.bytes.clone());
            if rendering.board.is_some() {
                self.compact.clone_from(&rendering.board);
            }
        }
        self.done = update.game.is_over();
    }

    /// The lines of `update` for this stream, from the version it showed last.
    fn render(&self, update: &Update) -> Rendering {
        let mut board = self.compact.clone();
        let mut bytes = Vec::new();
        for line in change_lines(&self.id, update, self.joined, self.viewer, now(), &self.who) {
            match (&board, &line) {
                (Some(before), StreamLine::Change(change)) => {
                    encode(&compact(change, before), &mut bytes);
                    board = Some(Arc::new(change.game.board.clone()));
                }
                _ => encode(&line, &mut bytes),
            }
        }
        Rendering {
            bytes: Bytes::from(bytes),
            board,
        }
    }

    /// News of the game: a seat joined, or (on a seat's stream after the end) a rematch.
    fn news(&mut self, news: &Happened, joined: Joined) {
        match news {
            Happened::Joined(_) => self.joined(joined),
            Happened::RematchAsked(_) | Happened::RematchStarted(_) => self.rematch(news),
            _ => {}
        }
    }

    /// A seat joined: a `joined` line with the game as last shown, unless this stream has shown
    /// that seat as taken already.
    fn joined(&mut self, joined: Joined) {
        let now_taken = self.joined.union(joined);
        if now_taken == self.joined {
            return;
        }
        self.joined = now_taken;
        let line = joined_line(
            &self.id,
            &self.game,
            self.version,
            now_taken,
            self.viewer,
            now(),
            &self.who,
        );
        self.push(&line);
    }

    /// The rematch as it stood when the stream opened after the end.
    fn rematch_so_far(&mut self, rematch: &Rematch) {
        for (color, asked) in [(Color::White, rematch.white), (Color::Black, rematch.black)] {
            if asked {
                self.news(&Happened::RematchAsked(color), Joined::default());
            }
        }
        if let Some(game) = &rematch.game {
            if let Ok(game) = GameId::parse(game) {
                self.news(&Happened::RematchStarted(game), Joined::default());
            }
        }
    }

    /// Shows rematch news on a seat's stream waiting after the end (other streams ignore it),
    /// each seat's offer once; the stream closes after the rematch has started.
    fn rematch(&mut self, news: &Happened) {
        let (Some(token), Some(_)) = (&self.rematch_token, self.until) else {
            return;
        };
        let Some(line) = rematch_line(news, token) else {
            return;
        };
        match news {
            Happened::RematchAsked(color) if self.offers.contains(color) => return,
            Happened::RematchAsked(color) => self.offers.push(*color),
            _ => self.done = true,
        }
        self.push(&line);
    }

    /// On a presence tick: a seat's stream shows its player there; the line says so when a
    /// player came or went, or its time away changed (the game started, say), since the stream
    /// last said (and once at first).
    async fn look_at_presence(&mut self) {
        let games = &self.games;
        if let Viewer::Player(seat) = self.viewer {
            if let Err(error) = games.pulse(&self.id, seat).await {
                tracing::warn!(game = %self.id, ?error, "a seat's presence was not noted");
            }
        }
        let presence: ByColor<Presence> = match games.presence(&self.id).await {
            Ok(presence) => presence,
            Err(error) => {
                tracing::warn!(game = %self.id, ?error, "presence could not be read");
                return;
            }
        };
        let Some(state) = &mut self.presence else {
            return;
        };
        if state.shown == Some(presence) {
            return;
        }
        state.shown = Some(presence);
        let line = presence_line(presence, games.claim_after());
        self.push(&line);
    }

    /// Fell behind the channel: show the game as it is now.
    async fn resync(&mut self) {
        match self.games.current(&self.id).await {
            Ok(update) => self.show(&update),
            Err(error) => {
                tracing::warn!(game = %self.id, ?error, "stream could not resynchronise");
                self.done = true;
            }
        }
    }

    fn push(&mut self, line: &StreamLine) {
        let mut bytes = Vec::new();
        if let (Some(board), StreamLine::Change(change)) = (&self.compact, line) {
            encode(&compact(change, board), &mut bytes);
            self.compact = Some(Arc::new(change.game.board.clone()));
        } else {
            encode(line, &mut bytes);
        }
        self.lines.push_back(Bytes::from(bytes));
    }
}

#[cfg(test)]
mod tests {
    use super::{Behind, behind, encode, wants};

    #[test]
    fn a_compact_stream_that_falls_behind_is_dropped_saying_so() {
        let Behind::Drop(last) = behind(true, 7) else {
            panic!("a compact stream is dropped");
        };
        let mut bytes = Vec::new();
        encode(&last, &mut bytes);
        assert_eq!(bytes, b"{\"type\":\"lagged\",\"last_version\":7}\n");
        assert!(
            matches!(behind(false, 7), Behind::Resync),
            "a full stream resynchronises"
        );
    }

    #[test]
    fn the_query_names_presence_and_lines_once_each() {
        let both = wants("presence=true&lines=compact").expect("both");
        assert!(both.presence && both.compact);
        assert!(!wants("").expect("none").compact);
        for bad in [
            "lines=tiny",
            "lines=compact&lines=full",
            "presence=yes",
            "x=1",
        ] {
            let error = wants(bad).expect_err(bad);
            assert!(error.body().message.contains("lines=full|compact"), "{bad}");
        }
    }
}
