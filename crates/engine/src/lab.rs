//! The lab (rules §5.1): a sandbox board. Pieces are placed and erased anywhere, kings toggled,
//! any piece moves whoever's turn it is, promotions are offered but block nothing, there is no
//! clock and nothing ends. Random debuffs come from the lab's seed and a move counter.

use crate::game::fill_ranks;
use crate::game_error::RefusalCode;
use crate::movegen::LegalMove;
use crate::piece::Piece;
use crate::position::{Draws, Mode, MovePly, PlayError, Position, PromotionPly};
use crate::rng::draws_for;
use crate::snapshot::{BadData, BoardData};
use crate::species::species_labels;
use crate::square::{BoardSize, Color, Square};
use crate::view::{MoveView, PlyView};
use gmo_genome::Genome;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a lab refused a request. The lab is then unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LabError {
    NotOnBoard(Square),
    EmptySquare(Square),
    NoPromotionDue,
    PresetLength { expected: u8, got: usize },
    BackRankIncomplete(Square),
    Move(PlayError),
}

impl LabError {
    /// A short machine-readable name, for an API's error body.
    pub const fn code(&self) -> RefusalCode {
        match self {
            LabError::NotOnBoard(_) => RefusalCode::NotOnBoard,
            LabError::EmptySquare(_) => RefusalCode::EmptySquare,
            LabError::NoPromotionDue => RefusalCode::NoPromotionDue,
            LabError::PresetLength { .. } => RefusalCode::PresetLength,
            LabError::BackRankIncomplete(_) => RefusalCode::BackRankIncomplete,
            LabError::Move(PlayError::Illegal { .. }) => RefusalCode::IllegalMove,
            LabError::Move(_) => RefusalCode::MoveRefused,
        }
    }
}

impl fmt::Display for LabError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LabError::NotOnBoard(square) => write!(f, "{square} is not on this board"),
            LabError::EmptySquare(square) => write!(f, "there is no piece on {square}"),
            LabError::NoPromotionDue => f.write_str("no pawn is waiting for promotion"),
            LabError::PresetLength { expected, got } => write!(
                f,
                "a preset for this board holds exactly {expected} genomes, not {got}"
            ),
            LabError::BackRankIncomplete(square) => write!(
                f,
                "cannot save the back rank as a preset: {square} is empty"
            ),
            LabError::Move(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for LabError {}

impl From<PlayError> for LabError {
    fn from(error: PlayError) -> Self {
        LabError::Move(error)
    }
}

/// A lab. Serialises as its seed, move counter and board.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(into = "LabSnapshot", try_from = "LabSnapshot")]
pub struct Lab {
    position: Position,
    seed: u64,
    /// Moves made so far: the number of the next move's random stream.
    draws: u64,
}

/// A lab as plain data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabSnapshot {
    pub seed: u64,
    pub draws: u64,
    pub board: BoardData,
}

impl From<Lab> for LabSnapshot {
    fn from(lab: Lab) -> Self {
        lab.snapshot()
    }
}

impl TryFrom<LabSnapshot> for Lab {
    type Error = BadData;

    fn try_from(snapshot: LabSnapshot) -> Result<Lab, BadData> {
        Ok(Lab {
            position: snapshot.board.to_position()?,
            seed: snapshot.seed,
            draws: snapshot.draws,
        })
    }
}

impl PartialEq for Lab {
    fn eq(&self, other: &Lab) -> bool {
        self.snapshot() == other.snapshot()
    }
}

/// A piece on a lab's board: everything is shown (docs/service.md, "A lab view").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LabPieceView {
    pub square: Square,
    pub color: Color,
    pub pawn: bool,
    pub king: bool,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::openapi::CodeSchema))]
    pub code: String,
    pub dna: String,
    /// The name of a standard genome (`queen`, …); absent for any other genome.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<&'static str>,
}

/// A lab as the API shows it (the server adds `id`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LabView {
    pub width: u8,
    pub height: u8,
    pub board: Vec<LabPieceView>,
    pub promotion_due: Option<Square>,
    /// Every pawn waiting for promotion, in square order.
    pub pending_promotions: Vec<Square>,
    pub moves_played: u32,
}

impl Lab {
    /// An empty lab board.
    pub fn new(size: BoardSize, seed: u64) -> Lab {
        Lab {
            position: Position::new(size),
            seed,
            draws: 0,
        }
    }

    /// A lab holding `position` (a game's, say): its pieces, genomes and turn counter; the king
    /// rule's verdict is dropped, since nothing ends in a lab.
    pub fn at(mut position: Position, seed: u64) -> Lab {
        position.clear_ended();
        Lab {
            position,
            seed,
            draws: 0,
        }
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The lab as plain data, listing only the genomes on its board: a genome placed and then
    /// replaced, or mutated away, is not kept, so a lab is as large as its board and no larger.
    pub fn snapshot(&self) -> LabSnapshot {
        LabSnapshot {
            seed: self.seed,
            draws: self.draws,
            board: BoardData::of(&self.position).without_unused_genomes(),
        }
    }

    /// The letters of DNA the lab keeps: each distinct genome on its board once.
    pub fn dna_letters(&self) -> usize {
        let mut seen = std::collections::HashSet::new();
        self.position
            .board()
            .pieces()
            .filter(|(_, piece)| seen.insert(piece.genome))
            .filter_map(|(_, piece)| self.position.genome(piece.genome))
            .map(|genome| genome.dna().len())
            .sum()
    }

    fn on_board(&self, square: Square) -> Result<(), LabError> {
        if self.position.size().contains(square) {
            Ok(())
        } else {
            Err(LabError::NotOnBoard(square))
        }
    }

    /// Places a piece, replacing whatever stood on `square`.
    pub fn place(
        &mut self,
        square: Square,
        genome: &Genome,
        color: Color,
        pawn: bool,
        king: bool,
    ) -> Result<(), LabError> {
        self.on_board(square)?;
        let id = self
            .position
            .intern(genome)
            .map_err(|_| LabError::Move(PlayError::TableFull))?;
        let piece = Piece {
            pawn,
            king,
            ..Piece::new(id, color)
        };
        Ok(self.position.put(square, piece)?)
    }

    /// Empties a square; returns whether a piece stood there.
    pub fn erase(&mut self, square: Square) -> Result<bool, LabError> {
        self.on_board(square)?;
        Ok(self.position.remove(square).is_some())
    }

    /// Toggles the king flag of the piece on `square`; returns the new flag.
    pub fn toggle_king(&mut self, square: Square) -> Result<bool, LabError> {
        self.on_board(square)?;
        let piece = self
            .position
            .piece_at(square)
            .ok_or(LabError::EmptySquare(square))?;
        let king = !piece.king;
        self.position.put(square, Piece { king, ..piece })?;
        Ok(king)
    }

    /// The legal moves of the piece on `square`, whoever owns it.
    pub fn moves_from(&self, square: Square) -> Vec<LegalMove> {
        self.position.moves_from(square)
    }

    pub fn move_views(&self, square: Square) -> Vec<MoveView> {
        self.moves_from(square)
            .into_iter()
            .map(|mv| MoveView::of_legal(&self.position, mv))
            .collect()
    }

    /// Moves any piece, whatever is due and whoever's turn it is.
    pub fn play(&mut self, from: Square, to: Square) -> Result<MovePly, LabError> {
        let mut rng = draws_for(self.seed, self.draws);
        let ply = self
            .position
            .make(Mode::Lab, from, to, Draws::Random(&mut rng))?;
        self.draws = self.draws.wrapping_add(1);
        Ok(ply)
    }

    /// Promotes the due pawn (the first pending one).
    pub fn promote(&mut self, genome: &Genome) -> Result<PromotionPly, LabError> {
        let due = self
            .position
            .due_promotion()
            .ok_or(LabError::NoPromotionDue)?;
        self.promote_at(due, genome)
    }

    /// Promotes any pending pawn.
    pub fn promote_at(
        &mut self,
        square: Square,
        genome: &Genome,
    ) -> Result<PromotionPly, LabError> {
        self.on_board(square)?;
        if !self.position.board().pending_promotions().contains(square) {
            return Err(LabError::Move(PlayError::NotPending(square)));
        }
        let id = self
            .position
            .intern(genome)
            .map_err(|_| LabError::Move(PlayError::TableFull))?;
        Ok(self.position.promote_at(square, id)?)
    }

    /// Fills `color`'s back rank with a preset and its pawn rank with standard pawns.
    pub fn load_preset(&mut self, color: Color, genomes: &[Genome]) -> Result<(), LabError> {
        let width = self.position.size().width();
        if genomes.len() != usize::from(width) {
            return Err(LabError::PresetLength {
                expected: width,
                got: genomes.len(),
            });
        }
        let mut position = self.position.clone();
        fill_ranks(&mut position, color, genomes)?;
        self.position = position;
        Ok(())
    }

    /// The genomes on `color`'s back rank, file a first; every square must be occupied (by a
    /// piece of either side: the rank is saved as it stands).
    pub fn save_preset(&self, color: Color) -> Result<Vec<Genome>, LabError> {
        let size = self.position.size();
        let y = size.back_rank(color);
        (0..size.width())
            .filter_map(|x| size.square(x, y))
            .map(|square| {
                self.position
                    .piece_at(square)
                    .and_then(|p| self.position.genome(p.genome))
                    .map(|g| g.genome().clone())
                    .ok_or(LabError::BackRankIncomplete(square))
            })
            .collect()
    }

    pub fn view(&self) -> LabView {
        let position = &self.position;
        let size = position.size();
        let board = position
            .board()
            .pieces()
            .filter_map(|(square, piece)| {
                let genome = position.genome(piece.genome)?;
                Some(LabPieceView {
                    square,
                    color: piece.color,
                    pawn: piece.pawn,
                    king: piece.king,
                    code: genome.code().to_string(),
                    dna: genome.dna().to_string(),
                    name: gmo_genome::standard::name_of(genome.dna()),
                })
            })
            .collect();
        LabView {
            width: size.width(),
            height: size.height(),
            board,
            promotion_due: position.due_promotion(),
            pending_promotions: position.board().pending_promotions().iter().collect(),
            moves_played: position.moves_played(),
        }
    }

    /// A move made here, as a ply view (a lab hides nothing: the mutation's code is shown).
    pub fn move_ply_view(&self, ply: &MovePly) -> PlyView {
        PlyView::of_move(
            MoveView::new(ply.from, ply.to, ply.effect),
            ply.drawn.landed,
            ply.drawn.mutation.as_ref().map(|g| g.code().to_string()),
        )
    }

    /// A promotion made here, as a ply view, with the species label the lab's seed gives it.
    pub fn promotion_ply_view(&self, ply: &PromotionPly) -> PlyView {
        let genomes = self.position.genomes();
        PlyView::of_promotion(
            ply.at,
            genomes.get(ply.genome).map(|g| g.code().to_string()),
            species_labels(self.seed, genomes)
                .get(ply.genome.index())
                .cloned()
                .unwrap_or_default(),
            genomes.get(ply.genome).map_or("", |g| g.dna()),
        )
    }
}
