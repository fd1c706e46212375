//! The GMO chess rules engine. Pure: no I/O, no async, no wall clock, no global random source.
//!
//! A [`Position`] holds a [`Board`] (bitboards and a genome id per square) and a shared table of
//! genomes compiled for its board size ([`CompiledGenome`]: precomputed walks, rules §3). Moves are
//! listed in the reference's order ([`Position::moves_from`]), made as rules §4 says
//! ([`Position::make`], with the random debuffs' draws recorded), and counted by [`perft`].

mod bitboard;
mod board;
mod compile;
mod movegen;
mod perft;
mod piece;
mod position;
mod square;
mod table;
pub mod vector;

#[cfg(test)]
mod tests;

pub use bitboard::{BitIter, Bitboard};
pub use board::Board;
pub use compile::{CompiledGenome, Effect, Leave, Party, TargetKind};
pub use gmo_genome::{Content, Debuff};
pub use movegen::LegalMove;
pub use perft::{PROMOTION_GENOMES, divide, perft};
pub use piece::{GenomeId, Piece};
pub use position::{
    Drawn, Draws, EndReason, GameResult, Mode, MovePly, PlayError, Position, PromotionPly, Status,
    king_rule,
};
pub use square::{BadSize, BadSquare, BoardSize, ByColor, Color, Square};
pub use table::{GenomeTable, TableFull};
pub use vector::PerftVector;
