//! A position as plain data (genome DNA in table order, pieces, move count), so that games, labs
//! and records can be stored as JSON and rebuilt with the same genome ids.

use crate::piece::Piece;
use crate::position::Position;
use crate::square::{BoardSize, Color, Square};
use gmo_genome::Genome;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One piece of a [`BoardData`]; `genome` indexes its `genomes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlacedPiece {
    pub square: Square,
    pub color: Color,
    pub genome: usize,
    pub pawn: bool,
    pub king: bool,
}

/// A position's board and genome table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BoardData {
    pub width: u8,
    pub height: u8,
    /// Canonical DNA of every genome the position knows, in table order (ids are indices).
    pub genomes: Vec<String>,
    /// In square order.
    pub pieces: Vec<PlacedPiece>,
    pub moves_played: u32,
}

/// Why stored data does not make a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadData(pub String);

impl fmt::Display for BadData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "stored position is invalid: {}", self.0)
    }
}

impl std::error::Error for BadData {}

impl BoardData {
    pub fn of(position: &Position) -> BoardData {
        let size = position.size();
        BoardData {
            width: size.width(),
            height: size.height(),
            genomes: position
                .genomes()
                .iter()
                .map(|(_, g)| g.dna().to_string())
                .collect(),
            pieces: position
                .board()
                .pieces()
                .map(|(square, piece)| PlacedPiece {
                    square,
                    color: piece.color,
                    genome: piece.genome.index(),
                    pawn: piece.pawn,
                    king: piece.king,
                })
                .collect(),
            moves_played: position.moves_played(),
        }
    }

    /// The same board listing only the genomes its pieces carry (in table order, renumbered).
    /// A lab keeps no record, so a genome no piece carries is never needed again.
    pub fn without_unused_genomes(mut self) -> BoardData {
        let mut used = vec![false; self.genomes.len()];
        for piece in &self.pieces {
            if let Some(slot) = used.get_mut(piece.genome) {
                *slot = true;
            }
        }
        let mut renumbered = Vec::with_capacity(used.len());
        let mut next = 0;
        for &kept in &used {
            renumbered.push(next);
            next += usize::from(kept);
        }
        for piece in &mut self.pieces {
            if let Some(&index) = renumbered.get(piece.genome) {
                piece.genome = index;
            }
        }
        let mut kept = used.into_iter();
        self.genomes.retain(|_| kept.next().unwrap_or(false));
        self
    }

    /// Rebuilds the position, interning the genomes in the stored order so that ids match.
    pub fn to_position(&self) -> Result<Position, BadData> {
        let bad = |why: String| BadData(why);
        let size = BoardSize::new(self.width, self.height).map_err(|e| bad(e.to_string()))?;
        let mut position = Position::new(size);
        let mut ids = Vec::with_capacity(self.genomes.len());
        for (i, dna) in self.genomes.iter().enumerate() {
            let genome = Genome::parse(dna).map_err(|e| bad(format!("genome {i}: {e}")))?;
            let id = position.intern(&genome).map_err(|e| bad(e.to_string()))?;
            if id.index() != i {
                return Err(bad(format!("genome {i} repeats genome {}", id.index())));
            }
            ids.push(id);
        }
        for placed in &self.pieces {
            let genome = *ids.get(placed.genome).ok_or_else(|| {
                bad(format!(
                    "the piece on {} names genome {}, which is not listed",
                    placed.square, placed.genome
                ))
            })?;
            let piece = Piece {
                genome,
                color: placed.color,
                pawn: placed.pawn,
                king: placed.king,
            };
            position
                .put(placed.square, piece)
                .map_err(|e| bad(e.to_string()))?;
        }
        position.set_moves_played(self.moves_played);
        Ok(position)
    }
}
