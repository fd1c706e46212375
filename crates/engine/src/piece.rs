//! Pieces and the handles by which they name their genome.

use crate::square::Color;

/// A genome's index in a position's genome table. Small so that pieces copy cheaply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct GenomeId(pub(crate) u16);

impl GenomeId {
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A piece (rules §1): its genome, its owner, a pawn flag and a king flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    pub genome: GenomeId,
    pub color: Color,
    pub pawn: bool,
    pub king: bool,
}

impl Piece {
    pub const fn new(genome: GenomeId, color: Color) -> Piece {
        Piece {
            genome,
            color,
            pawn: false,
            king: false,
        }
    }
}
