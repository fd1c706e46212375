//! What each viewer may see (rules §5.6), in the shapes of the API (`docs/service.md`):
//! everyone sees squares, sides, pawn and king flags and a per-game species label; a genome's code
//! and DNA only reach its owner until the game is over.

use crate::compile::{Effect, Leave, Party};
use crate::game::{Game, GameStatus, Reason, Seat};
use crate::movegen::LegalMove;
use crate::position::{MovePly, Position, PromotionPly};
use crate::square::{ByColor, Color, Square};
use gmo_genome::Content;
use gmo_types::{Millis, Timestamp};
use serde::{Deserialize, Serialize};

/// Who is looking at a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Viewer {
    Player(Color),
    Spectator,
}

impl Viewer {
    pub const fn color(self) -> Option<Color> {
        match self {
            Viewer::Player(color) => Some(color),
            Viewer::Spectator => None,
        }
    }
}

/// A game as one viewer sees it (docs/service.md, "A game view"; the server adds `id`, and turns
/// `frozen_until` from milliseconds into RFC 3339).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameView {
    pub status: GameStatus,
    pub reason: Option<Reason>,
    pub width: u8,
    pub height: u8,
    pub you: Option<Color>,
    pub to_move: Option<Color>,
    pub moves_played: u32,
    pub promotion_due: Option<Square>,
    pub frozen_until: Option<Timestamp>,
    /// When the running first-move timer runs out, while the first moves are timed.
    pub first_move_deadline: Option<Timestamp>,
    pub clocks: ClocksView,
    pub seats: ByColor<Seat>,
    /// The seat whose draw offer waits for the other seat's answer.
    pub draw_offer: Option<Color>,
    /// Each side's kings that the other side could take or convert with one move if it were to
    /// move now (none outside play). Legal moves are public, so this reveals nothing hidden.
    pub kings_in_danger: ByColor<Vec<Square>>,
    pub board: Vec<PieceView>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClocksView {
    /// White's remaining time in milliseconds, as of the answer.
    #[cfg_attr(feature = "openapi", schema(value_type = i64))]
    pub white_ms: Millis,
    #[cfg_attr(feature = "openapi", schema(value_type = i64))]
    pub black_ms: Millis,
    /// Whose clock runs (`null` before the start and after the end).
    pub running: Option<Color>,
    /// Added to a side's clock after each of its moves.
    #[cfg_attr(feature = "openapi", schema(value_type = i64))]
    pub increment_ms: Millis,
}

/// A piece on a game's board. `code` and `dna` are left out where the viewer may not see them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PieceView {
    pub square: Square,
    pub color: Color,
    pub pawn: bool,
    pub king: bool,
    /// The per-game label of the piece's genome, the same for every viewer.
    pub species: String,
    /// The name of a standard genome (`queen`, …), for every viewer: the six named genomes are
    /// public knowledge (rules §5.6). Absent for any other genome.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<&'static str>,
    /// The genome's code: only on the viewer's own pieces until the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = crate::openapi::CodeSchema))]
    pub code: Option<String>,
    /// The genome's canonical DNA: only on the viewer's own pieces until the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dna: Option<String>,
}

/// What a move leaves on one square (docs/service.md, "A move view and a ply").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LeaveView {
    pub what: What,
    pub owner: Party,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum What {
    Mover,
    Target,
    Nothing,
}

impl From<Leave> for LeaveView {
    fn from(leave: Leave) -> Self {
        let what = match leave.what {
            Content::Mover => What::Mover,
            Content::Target => What::Target,
            Content::Nothing => What::Nothing,
        };
        LeaveView {
            what,
            owner: leave.owner,
        }
    }
}

/// A legal move, as listed to anyone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MoveView {
    pub from: Square,
    pub to: Square,
    pub from_after: LeaveView,
    pub to_after: LeaveView,
    /// The move itself removes one of the mover's kings, so it loses (or draws) at once.
    #[serde(default)]
    pub loses_own_king: bool,
    /// After it the opponent could capture (or convert) one of the mover's kings.
    #[serde(default)]
    pub exposes_king: bool,
}

impl MoveView {
    pub fn new(from: Square, to: Square, effect: Effect) -> MoveView {
        MoveView {
            from,
            to,
            from_after: effect.from.into(),
            to_after: effect.to.into(),
            loses_own_king: false,
            exposes_king: false,
        }
    }

    /// The legal move `mv` of `position`, with what it risks for its own side's kings.
    pub fn of_legal(position: &Position, mv: LegalMove) -> MoveView {
        let risks = position.move_risks(&mv);
        MoveView {
            loses_own_king: risks.loses_own_king,
            exposes_king: risks.exposes_king,
            ..MoveView::new(mv.from, mv.to, mv.effect)
        }
    }
}

impl From<LegalMove> for MoveView {
    fn from(m: LegalMove) -> Self {
        MoveView::new(m.from, m.to, m.effect)
    }
}

/// A ply as one viewer sees it (docs/service.md, "A move view and a ply"). Each kind carries
/// `"type"` (`move` or `promotion`) so that clients can tell them apart without probing fields;
/// each is a schema of its own, so that generated clients get one class per kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum PlyView {
    Move(MovePlyView),
    Promotion(PromotionPlyView),
}

/// The `type` of a move's ply: always `move`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum MoveTag {
    #[default]
    Move,
}

/// The `type` of a promotion's ply: always `promotion`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum PromotionTag {
    #[default]
    Promotion,
}

/// A move: the move view plus what its randomness drew.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MovePlyView {
    #[serde(rename = "type")]
    pub kind: MoveTag,
    pub from: Square,
    /// The requested destination.
    pub to: Square,
    pub from_after: LeaveView,
    pub to_after: LeaveView,
    /// Where the mover ended up (the target, unless a deviation moved it).
    pub landed: Square,
    /// The mover's new code after a mutation, shown to its owner (or to all after the end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = crate::openapi::CodeSchema))]
    pub mutated_to: Option<String>,
}

/// A promotion: where, and what the pawn became.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PromotionPlyView {
    #[serde(rename = "type")]
    pub kind: PromotionTag,
    /// The square of the promoted pawn.
    pub promotion: Square,
    /// The new piece's code, shown to its owner (or to all after the end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = crate::openapi::CodeSchema))]
    pub genome: Option<String>,
    /// The new piece's per-game species label.
    pub species: String,
    /// The name of a standard genome (`queen`, …) the pawn became, for every viewer; absent for
    /// any other genome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl PlyView {
    /// A move's ply: `mv`, landed on `landed`, the mover's new code if it mutated (and shown).
    pub fn of_move(mv: MoveView, landed: Square, mutated_to: Option<String>) -> PlyView {
        PlyView::Move(MovePlyView {
            kind: MoveTag::Move,
            from: mv.from,
            to: mv.to,
            from_after: mv.from_after,
            to_after: mv.to_after,
            landed,
            mutated_to,
        })
    }

    /// A promotion's ply on `promotion`, the new code if shown, its species label and the
    /// standard name of its genome (`dna`), if it has one.
    pub fn of_promotion(
        promotion: Square,
        genome: Option<String>,
        species: String,
        dna: &str,
    ) -> PlyView {
        PlyView::Promotion(PromotionPlyView {
            kind: PromotionTag::Promotion,
            promotion,
            genome,
            species,
            name: gmo_genome::standard::name_of(dna).map(str::to_owned),
        })
    }
}

/// Every piece of `position`, in square order, with its genome's species label (from `labels`, by
/// genome id: [`crate::species_labels`]) and its code and DNA only where `shown(its owner)`: the board of
/// a game view, for this or an earlier position.
pub fn board_view(
    position: &Position,
    labels: &[String],
    shown: impl Fn(Color) -> bool,
) -> Vec<PieceView> {
    position
        .board()
        .pieces()
        .map(|(square, piece)| {
            let name = position
                .genome(piece.genome)
                .and_then(|genome| gmo_genome::standard::name_of(genome.dna()));
            let genome = position.genome(piece.genome).filter(|_| shown(piece.color));
            PieceView {
                name,
                square,
                color: piece.color,
                pawn: piece.pawn,
                king: piece.king,
                species: labels
                    .get(piece.genome.index())
                    .cloned()
                    .unwrap_or_default(),
                code: genome.map(|g| g.code().to_string()),
                dna: genome.map(|g| g.dna().to_string()),
            }
        })
        .collect()
}

impl Game {
    /// Whether `viewer` may see the genomes of `owner`'s pieces: its own always, the others' once
    /// the game is over — except in discovery, where they stay hidden.
    pub fn shows_genomes(&self, viewer: Viewer, owner: Color) -> bool {
        viewer.color() == Some(owner) || (self.is_over() && !self.settings().discovery)
    }

    /// The game as `viewer` sees it at `now`.
    pub fn view(&self, viewer: Viewer, now: Timestamp) -> GameView {
        let position = self.position();
        let size = position.size();
        let board = board_view(position, &self.species_labels(), |owner| {
            self.shows_genomes(viewer, owner)
        });
        let clock = self.clock();
        GameView {
            status: self.status(),
            reason: self.reason(),
            width: size.width(),
            height: size.height(),
            you: viewer.color(),
            to_move: self.to_move(),
            moves_played: self.moves_played(),
            promotion_due: self.promotion_due(),
            frozen_until: self.frozen_until(now),
            first_move_deadline: self.first_move_deadline(),
            clocks: ClocksView {
                white_ms: clock.remaining_at(Color::White, now),
                black_ms: clock.remaining_at(Color::Black, now),
                running: clock.running(),
                increment_ms: self.settings().increment_ms,
            },
            seats: self.seats(),
            draw_offer: self.draw_offer(),
            kings_in_danger: self.kings_in_danger(),
            board,
        }
    }

    /// Each side's kings in danger while the game is in progress (none in setup or after the
    /// end), in square order.
    pub fn kings_in_danger(&self) -> ByColor<Vec<Square>> {
        if self.status() != GameStatus::InProgress {
            return ByColor::default();
        }
        let danger = self.position().kings_in_danger();
        ByColor::new(danger.white.iter().collect(), danger.black.iter().collect())
    }

    /// A move `mover` made, as `viewer` sees it.
    pub fn move_ply_view(&self, ply: &MovePly, mover: Color, viewer: Viewer) -> PlyView {
        let shown = self.shows_genomes(viewer, mover);
        PlyView::of_move(
            MoveView::new(ply.from, ply.to, ply.effect),
            ply.drawn.landed,
            ply.drawn
                .mutation
                .as_ref()
                .filter(|_| shown)
                .map(|g| g.code().to_string()),
        )
    }

    /// A promotion, as `viewer` sees it.
    pub fn promotion_ply_view(&self, ply: &PromotionPly, viewer: Viewer) -> PlyView {
        let position = self.position();
        let owner = position.piece_at(ply.at).map(|p| p.color);
        let shown = owner.is_some_and(|owner| self.shows_genomes(viewer, owner));
        let labels = self.species_labels();
        PlyView::of_promotion(
            ply.at,
            position
                .genome(ply.genome)
                .filter(|_| shown)
                .map(|g| g.code().to_string()),
            labels.get(ply.genome.index()).cloned().unwrap_or_default(),
            position.genome(ply.genome).map_or("", |g| g.dna()),
        )
    }

    /// Every legal move of the side to move, as move views with what each risks for its own
    /// side's kings (none outside play or while a promotion is due): an agent's `legal`.
    pub fn legal_move_views(&self) -> Vec<MoveView> {
        self.legal_moves()
            .into_iter()
            .map(|mv| MoveView::of_legal(self.position(), mv))
            .collect()
    }

    /// The names of the genomes offered for the due pawn, while one is due: an agent's
    /// `promotion` (any stored genome may be given; these are the standard choices).
    pub fn promotion_choices(&self) -> Option<&'static [&'static str]> {
        self.promotion_due()
            .filter(|_| self.status() == GameStatus::InProgress)
            .map(|_| &crate::PROMOTION_GENOMES[..])
    }

    /// The legal moves of the piece on `square`, as move views, with what each risks for its own
    /// side's kings.
    pub fn move_views(&self, square: Square) -> Vec<MoveView> {
        self.moves_from(square)
            .into_iter()
            .map(|mv| MoveView::of_legal(self.position(), mv))
            .collect()
    }
}
