//! The lines of a game's stream (`GET /api/games/{id}/stream`, NDJSON): the first is the game as
//! the caller may see it, every later one says what happened. [`change_lines`] is the one place
//! that turns what the game service says happened into lines.

use crate::views::{GameView, Who, game_view, rfc3339};
use gmo_engine::{Color, Game, PlyView, Viewer};
use gmo_play::{Happened, Presence, Update};
use gmo_store::Joined;
use gmo_types::{ByColor, GameId, Millis, Timestamp};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// What a line of a game's stream says happened (docs/service.md: the stream's `"type"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum LineType {
    /// A move was made (the line carries its `ply`).
    Move,
    /// A pawn was promoted (the line carries its `ply`).
    Promotion,
    /// A seat loaded its preset, toggled a king or declared ready.
    Setup,
    /// Both seats are ready: the game and White's clock start.
    Start,
    /// A move froze the game: both clocks stand still until `frozen_until`.
    Clock,
    /// The game is over (`status` and `reason` say how).
    End,
    /// The stream fell behind: this is the game as it is now.
    Resync,
    /// A seat offered a draw (`game.draw_offer` names it).
    DrawOffer,
    /// The pending draw offer was declined: the other seat moved.
    DrawDeclined,
    /// The other seat accepted the draw offer: an `end` line follows (reason `agreement`).
    DrawAgreed,
    /// A seat asked for a rematch (`color`); after the end, on seats' streams only.
    RematchOffer,
    /// Both seats asked for a rematch: the line names the new game and this seat's token in it.
    Rematch,
    /// A seat's holder opened the game for the first time (`game.seats.<color>.joined` turned
    /// `true`); no change of the game, so the line repeats the last version shown.
    Joined,
    /// Whether each player is there (streams asked with `?presence=true`): after the first line,
    /// then whenever a player comes or goes.
    Presence,
    /// A compact stream fell too far behind its game (its reader did not keep up): it closes
    /// after this line; read the game again and reopen the stream.
    Lagged,
}

/// One line of a game's stream: the first is the game as the caller may see it, every later one
/// a change.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum StreamLine {
    View(StreamStart),
    Change(ChangeLine),
    Compact(CompactLine),
    Lagged(LaggedLine),
    RematchOffer(RematchOfferLine),
    Rematch(RematchLine),
    Presence(PresenceLine),
}

/// Whether each player is there (as on lichess: a player whose game page is closed is away, and
/// after a minute away the other may claim the victory).
#[derive(Debug, Serialize, ToSchema)]
pub struct PresenceLine {
    /// `presence`.
    #[serde(rename = "type")]
    pub kind: LineType,
    pub seats: SeatsPresence,
}

/// Each seat's presence.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatsPresence {
    pub white: PresenceView,
    pub black: PresenceView,
}

/// Whether a seat's player is there.
#[derive(Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct PresenceView {
    /// The player has the game open (a stream of its seat), or a bot plays the seat.
    pub present: bool,
    /// While the player is away: since when (an RFC 3339 time; the start, for one never seen).
    #[schema(format = DateTime)]
    pub away_since: Option<String>,
    /// While the player is away: from when the other side may claim the victory
    /// (`POST /api/games/{id}/claim`), an RFC 3339 time.
    #[schema(format = DateTime)]
    pub claimable_at: Option<String>,
}

/// The presence line of `presence`, each away seat's claim allowed `claim_after` after it left.
pub fn presence_line(presence: ByColor<Presence>, claim_after: Millis) -> StreamLine {
    let view = |presence: Presence| PresenceView {
        present: presence.present,
        away_since: presence.away_since.map(rfc3339),
        claimable_at: presence
            .away_since
            .map(|since| rfc3339(since.saturating_add(claim_after))),
    };
    StreamLine::Presence(PresenceLine {
        kind: LineType::Presence,
        seats: SeatsPresence {
            white: view(presence.white),
            black: view(presence.black),
        },
    })
}

/// After the end, on a seat's stream: a seat asked for a rematch.
#[derive(Debug, Serialize, ToSchema)]
pub struct RematchOfferLine {
    /// `rematch_offer`.
    #[serde(rename = "type")]
    pub kind: LineType,
    /// The seat that asked.
    pub color: Color,
}

/// After the end, on a seat's stream: both seats asked, the new game has started (colours
/// swapped). The stream closes after this line.
#[derive(Debug, Serialize, ToSchema)]
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
#[derive(Debug, Serialize, ToSchema)]
pub struct StreamStart {
    #[serde(flatten)]
    pub game: GameView,
    /// Every ply so far as the caller may see it, oldest first (as `GET /api/games/{id}/plies`).
    pub plies: Vec<PlyView>,
}

/// A change of the game, with the game as the caller may see it afterwards.
#[derive(Debug, Serialize, ToSchema)]
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

/// The lines a committed change of game `id` makes on a stream of `viewer`, in order: one for
/// each thing that happened, each with the game as the viewer sees it afterwards (`joined`: the
/// seats the stream has shown as taken). A change that does not say what happened (the game as
/// it is now, after the stream fell behind) is one `resync` line. News (a seat joining, a
/// rematch) makes no change line: [`joined_line`] and [`rematch_line`] show it.
pub fn change_lines(
    id: &GameId,
    update: &Update,
    joined: Joined,
    viewer: Viewer,
    now: Timestamp,
    who: &Who,
) -> Vec<StreamLine> {
    let game = GameView {
        version: update.version,
        ..game_view(id, &update.game, joined, viewer, now, who)
    };
    let line = |kind, ply: Option<&PlyView>| {
        StreamLine::Change(ChangeLine {
            kind,
            version: update.version,
            ply: ply.cloned(),
            game: game.clone(),
        })
    };
    if update.happened.is_empty() {
        return vec![line(LineType::Resync, None)];
    }
    update
        .happened
        .iter()
        .filter_map(|happened| {
            let (kind, ply) = match happened {
                Happened::SetUp => (LineType::Setup, None),
                Happened::Started => (LineType::Start, None),
                Happened::Moved(plies) => (LineType::Move, plies.for_viewer(viewer)),
                Happened::Promoted(plies) => (LineType::Promotion, plies.for_viewer(viewer)),
                Happened::Froze => (LineType::Clock, None),
                Happened::DrawOffered => (LineType::DrawOffer, None),
                Happened::DrawDeclined => (LineType::DrawDeclined, None),
                Happened::DrawAgreed => (LineType::DrawAgreed, None),
                Happened::Ended => (LineType::End, None),
                Happened::Joined(_) | Happened::RematchAsked(_) | Happened::RematchStarted(_) => {
                    return None;
                }
            };
            Some(line(kind, ply))
        })
        .collect()
}

/// A change on a compact stream (`?lines=compact`): only what changed since the line before —
/// the squares whose contents changed (a copy, a conversion, a mutation or a deviation can change
/// more than two), the clocks, the side to move, the status; `seats` on setup lines.
#[derive(Debug, Serialize, ToSchema)]
pub struct CompactLine {
    #[serde(rename = "type")]
    pub kind: LineType,
    /// The game's version after the change: a client that sees a gap (a version it skipped)
    /// reads the game again (`GET /api/games/{id}`).
    pub version: i64,
    /// On `move` and `promotion` lines: the ply as the caller may see it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<PlyView>,
    /// Each square whose contents changed, with what it holds now (`null`: empty); a piece
    /// without its `dna` (its `code` names the genome).
    pub squares: Vec<SquareChange>,
    pub clocks: gmo_engine::ClocksView,
    pub to_move: Option<Color>,
    pub status: gmo_engine::GameStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<gmo_engine::Reason>,
    pub moves_played: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub promotion_due: Option<gmo_engine::Square>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_offer: Option<Color>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = DateTime)]
    pub frozen_until: Option<String>,
    /// While a first-move timer runs: when it runs out (RFC 3339).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = DateTime)]
    pub first_move_deadline: Option<String>,
    /// Each side's kings the other could take with one move (as in the game view).
    pub kings_in_danger: crate::views::KingsInDanger,
    /// On `setup`, `start` and `joined` lines: each seat's progress through setup.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seats: Option<crate::views::Seats>,
}

/// The last line of a compact stream that fell too far behind.
#[derive(Debug, Serialize, ToSchema)]
pub struct LaggedLine {
    /// `lagged`.
    #[serde(rename = "type")]
    pub kind: LineType,
    /// The last version the stream showed.
    pub last_version: i64,
}

/// A square's contents after a change.
#[derive(Debug, Serialize, ToSchema)]
pub struct SquareChange {
    pub square: gmo_engine::Square,
    pub piece: Option<gmo_engine::PieceView>,
}

/// The compact form of a change line, given the board the stream showed before it.
pub fn compact(change: &ChangeLine, before: &[gmo_engine::PieceView]) -> StreamLine {
    let game = &change.game;
    let seats = matches!(
        change.kind,
        LineType::Setup | LineType::Start | LineType::Joined | LineType::Resync
    )
    .then_some(game.seats);
    StreamLine::Compact(CompactLine {
        kind: change.kind,
        version: change.version,
        ply: change.ply.clone(),
        squares: changed_squares(before, &game.board)
            .into_iter()
            .map(|mut change| {
                // The code names the genome; its DNA is one `GET /api/genomes/{code}` away for
                // whoever may see the code, and would double a seat's move line.
                if let Some(piece) = &mut change.piece {
                    piece.dna = None;
                }
                change
            })
            .collect(),
        clocks: game.clocks,
        to_move: game.to_move,
        status: game.status,
        reason: game.reason,
        moves_played: game.moves_played,
        promotion_due: game.promotion_due,
        draw_offer: game.draw_offer,
        frozen_until: game.frozen_until.clone(),
        first_move_deadline: game.first_move_deadline.clone(),
        kings_in_danger: game.kings_in_danger.clone(),
        seats,
    })
}

/// The squares whose piece differs between `before` and `after` (both in square order), with
/// what they hold after.
fn changed_squares(
    before: &[gmo_engine::PieceView],
    after: &[gmo_engine::PieceView],
) -> Vec<SquareChange> {
    let (old, new) = (by_square(before), by_square(after));
    let mut squares: Vec<usize> = old.keys().chain(new.keys()).copied().collect();
    squares.sort_unstable();
    squares.dedup();
    squares
        .into_iter()
        .filter(|square| old.get(square) != new.get(square))
        .filter_map(|square| {
            let piece = new.get(&square).map(|piece| (*piece).clone());
            let at = piece
                .as_ref()
                .map(|piece| piece.square)
                .or_else(|| old.get(&square).map(|piece| piece.square))?;
            Some(SquareChange { square: at, piece })
        })
        .collect()
}

fn by_square(board: &[gmo_engine::PieceView]) -> BTreeMap<usize, &gmo_engine::PieceView> {
    board
        .iter()
        .map(|piece| (piece.square.index(), piece))
        .collect()
}

/// A seat joined: the game as last shown (`game` at `version`), with `joined` seats taken.
pub fn joined_line(
    id: &GameId,
    game: &Game,
    version: i64,
    joined: Joined,
    viewer: Viewer,
    now: Timestamp,
    who: &Who,
) -> StreamLine {
    StreamLine::Change(ChangeLine {
        kind: LineType::Joined,
        version,
        ply: None,
        game: GameView {
            version,
            ..game_view(id, game, joined, viewer, now, who)
        },
    })
}

/// Rematch news for a seat's stream: a seat asked, or the rematch started, in which the seat's
/// token is `token`.
pub fn rematch_line(news: &Happened, token: &str) -> Option<StreamLine> {
    match news {
        Happened::RematchAsked(color) => Some(StreamLine::RematchOffer(RematchOfferLine {
            kind: LineType::RematchOffer,
            color: *color,
        })),
        Happened::RematchStarted(game) => Some(StreamLine::Rematch(RematchLine {
            kind: LineType::Rematch,
            token: token.to_owned(),
            game: game.to_string(),
        })),
        _ => None,
    }
}
