//! The response bodies of games and labs as docs/service.md spells them: the engine's views with the
//! game's or lab's id added and the freeze as RFC 3339, built as typed values.

use gmo_engine::{
    ByColor, ClocksView, Color, Game, GameStatus, Lab, LabPieceView, PieceView, PlyView, Reason,
    Seat, Square, Viewer,
};
use gmo_play::{Changed, Seen};
use gmo_store::{Joined, Player};
use gmo_types::{GameId, LabId, Timestamp};
use serde::Serialize;
use time::OffsetDateTime;
use time::format_description::FormatItem;
use time::macros::format_description;
use utoipa::ToSchema;

/// A game as one viewer may see it (rules §5.6: genomes only on the viewer's own pieces until
/// the end).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GameView {
    #[schema(value_type = crate::schema::Id)]
    pub id: String,
    pub status: GameStatus,
    /// Why the game ended; `null` while it has not.
    pub reason: Option<Reason>,
    #[schema(minimum = 4, maximum = 8)]
    pub width: u8,
    #[schema(minimum = 4, maximum = 8)]
    pub height: u8,
    /// The viewer's side; `null` for a spectator.
    pub you: Option<Color>,
    /// Whose move it is; `null` in setup and after the end.
    pub to_move: Option<Color>,
    pub moves_played: u32,
    /// The pawn waiting for its owner's promotion, if any.
    pub promotion_due: Option<Square>,
    /// While a freeze holds both clocks (an RFC 3339 time), else `null`.
    #[schema(format = DateTime)]
    pub frozen_until: Option<String>,
    /// While a first-move timer runs (the clocks start once both sides have moved; rules §5.4),
    /// when it runs out: an RFC 3339 time, else `null`. A side that lets it run out aborts the
    /// game (reason `no_first_move`).
    #[schema(format = DateTime)]
    pub first_move_deadline: Option<String>,
    pub clocks: ClocksView,
    /// Each seat's progress through setup, and whether its holder has opened the game.
    pub seats: Seats,
    /// The seat whose draw offer waits for the other seat's answer.
    pub draw_offer: Option<Color>,
    /// Each side's kings that the other side could take or convert with one move if it were to
    /// move now (empty outside play).
    pub kings_in_danger: KingsInDanger,
    /// Every piece, in square order.
    pub board: Vec<PieceView>,
    /// Whether the game changes its players' ratings when it ends.
    pub rated: bool,
    /// The account each seat belongs to; `null` for an anonymous seat or a bot's.
    pub players: PlayersView,
    /// A rated game's rating changes, once it is over (absent before, and for unrated games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating_diff: Option<RatingDiff>,
    /// The game keeps the genome language secret (discovery: the server's, or its event's): the
    /// other side's genomes stay hidden after the end too.
    pub discovery: bool,
    /// The game's version: it grows with every change, as the stream's lines say. A client that
    /// applies compact lines to a view it read knows from it which lines it has.
    pub version: i64,
}

/// The account of each seat.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlayersView {
    pub white: Option<PlayerView>,
    pub black: Option<PlayerView>,
}

/// A seat's account, with the rating it had when the seat became its.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlayerView {
    /// `null` once the account is deleted.
    #[schema(value_type = Option<crate::schema::UsernameText>)]
    pub username: Option<String>,
    /// The rating, rounded.
    pub rating: i64,
    /// Whether the rating was provisional (shown with `?`).
    pub provisional: bool,
    /// The account was deleted since.
    pub deleted: bool,
    /// A bot account (issue 33).
    pub bot: bool,
}

/// How a rated game changed each player's rating (rounded values, after less before).
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct RatingDiff {
    pub white: i64,
    pub black: i64,
}

/// Who plays a game, as its views show it.
#[derive(Debug, Clone)]
pub struct Who {
    pub players: ByColor<Option<Player>>,
    pub rated: bool,
}

impl Who {
    /// Nobody's game: anonymous seats, unrated.
    pub fn nobody() -> Who {
        Who {
            players: ByColor::new(None, None),
            rated: false,
        }
    }

    pub fn of(seen: &Seen) -> Who {
        Who {
            players: seen.players.clone(),
            rated: seen.rated,
        }
    }
}

/// Each seat's progress through setup, and whether its holder has opened the game.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct Seats {
    pub white: SeatView,
    pub black: SeatView,
}

/// A seat's progress through setup, and whether its holder has opened the game.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct SeatView {
    /// The seat has loaded its preset.
    pub preset: bool,
    /// The seat has declared ready.
    pub ready: bool,
    /// The seat is taken: a bot plays it, or its holder has opened the game with the seat's
    /// token (read the game or its stream, or acted on it) at least once. Never goes back to
    /// `false`; the stream announces the change with a `joined` line.
    pub joined: bool,
}

/// The squares of each side's kings in danger.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct KingsInDanger {
    /// White's kings that Black could take or convert.
    pub white: Vec<Square>,
    /// Black's kings that White could take or convert.
    pub black: Vec<Square>,
}

/// A game as its viewer sees it at `now`.
pub fn seen_view(seen: &Seen, now: Timestamp) -> GameView {
    let view = game_view(
        &seen.id,
        &seen.game,
        seen.joined,
        seen.viewer,
        now,
        &Who::of(seen),
    );
    GameView {
        version: seen.version,
        ..view
    }
}

/// A changed game as whoever changed it sees it.
pub fn changed_view(changed: &Changed) -> GameView {
    let view = game_view(
        &changed.id,
        &changed.game,
        changed.joined,
        changed.viewer,
        changed.now,
        &Who {
            players: changed.players.clone(),
            rated: changed.rated,
        },
    );
    GameView {
        version: changed.version,
        ..view
    }
}

/// The game `id` as `viewer` may see it at `now`; `joined`: which seats are taken (the viewer's
/// own seat is, whatever `joined` says: its token is in use).
pub fn game_view(
    id: &GameId,
    game: &Game,
    joined: Joined,
    viewer: Viewer,
    now: Timestamp,
    who: &Who,
) -> GameView {
    // Destructured whole, so that a field the engine adds cannot be left out here unnoticed.
    let gmo_engine::GameView {
        status,
        reason,
        width,
        height,
        you,
        to_move,
        moves_played,
        promotion_due,
        frozen_until,
        first_move_deadline,
        clocks,
        seats,
        draw_offer,
        kings_in_danger,
        board,
    } = game.view(viewer, now);
    GameView {
        id: id.to_string(),
        status,
        reason,
        width,
        height,
        you,
        to_move,
        moves_played,
        promotion_due,
        frozen_until: frozen_until.map(rfc3339),
        first_move_deadline: first_move_deadline.map(rfc3339),
        clocks,
        seats: seats_view(seats, joined, viewer),
        draw_offer,
        kings_in_danger: KingsInDanger {
            white: kings_in_danger.white,
            black: kings_in_danger.black,
        },
        board,
        rated: who.rated,
        players: PlayersView {
            white: who.players.white.as_ref().map(player_view),
            black: who.players.black.as_ref().map(player_view),
        },
        rating_diff: rating_diff(who),
        discovery: game.settings().discovery,
        version: 0,
    }
}

fn player_view(player: &Player) -> PlayerView {
    PlayerView {
        username: (!player.deleted).then(|| player.username.to_string()),
        rating: player.rating.round() as i64,
        provisional: player.deviation >= gmo_types::Rating::PROVISIONAL_DEVIATION,
        deleted: player.deleted,
        bot: player.bot,
    }
}

fn rating_diff(who: &Who) -> Option<RatingDiff> {
    let diff = |player: &Option<Player>| player.as_ref().and_then(|player| player.rating_diff);
    match (diff(&who.players.white), diff(&who.players.black)) {
        (Some(white), Some(black)) => Some(RatingDiff { white, black }),
        _ => None,
    }
}

fn seats_view(seats: ByColor<Seat>, joined: Joined, viewer: Viewer) -> Seats {
    let seat = |seat: Seat, joined: bool, color: Color| SeatView {
        preset: seat.preset,
        ready: seat.ready,
        joined: joined || viewer.color() == Some(color),
    };
    Seats {
        white: seat(seats.white, joined.white, Color::White),
        black: seat(seats.black, joined.black, Color::Black),
    }
}

/// A lab (every genome shown).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LabView {
    #[schema(value_type = crate::schema::Id)]
    pub id: String,
    #[schema(minimum = 4, maximum = 8)]
    pub width: u8,
    #[schema(minimum = 4, maximum = 8)]
    pub height: u8,
    /// Every piece, in square order.
    pub board: Vec<LabPieceView>,
    /// The first pawn waiting for promotion, if any.
    pub promotion_due: Option<Square>,
    /// Every pawn waiting for promotion, in square order.
    pub pending_promotions: Vec<Square>,
    pub moves_played: u32,
}

/// The lab `id`.
pub fn lab_view(id: &LabId, lab: &Lab) -> LabView {
    let gmo_engine::LabView {
        width,
        height,
        board,
        promotion_due,
        pending_promotions,
        moves_played,
    } = lab.view();
    LabView {
        id: id.to_string(),
        width,
        height,
        board,
        promotion_due,
        pending_promotions,
        moves_played,
    }
}

/// The answer to a move or a promotion in a game.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GamePly {
    pub ply: PlyView,
    pub game: GameView,
}

/// The answer to a move or a promotion in a lab.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LabPly {
    pub ply: PlyView,
    pub lab: LabView,
}

/// `at` as an RFC 3339 UTC time with milliseconds, e.g. `2024-05-01T12:00:05.250Z`.
pub fn rfc3339(at: Timestamp) -> String {
    const FORMAT: &[FormatItem<'_>] =
        format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z");
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(at.ms()) * 1_000_000)
        .ok()
        .and_then(|time| time.format(FORMAT).ok())
        // Only instants beyond the year 9999 have no such form; the service makes none (its
        // instants are now, or a freeze's few seconds after).
        .unwrap_or_else(|| format!("+{}ms", at.ms()))
}

#[cfg(test)]
mod tests {
    use super::rfc3339;
    use gmo_types::Timestamp;

    #[test]
    fn formats_known_instants() {
        let at = |ms| rfc3339(Timestamp::from_ms(ms));
        assert_eq!(at(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(at(951_782_400_123), "2000-02-29T00:00:00.123Z");
        assert_eq!(at(1_700_000_000_000), "2023-11-14T22:13:20.000Z");
        assert_eq!(at(-1), "1969-12-31T23:59:59.999Z");
    }
}
