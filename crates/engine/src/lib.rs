//! The GMO chess rules engine. Pure: no I/O, no async, no wall clock, no global random source.
//!
//! A [`Position`] holds a [`Board`] (bitboards and a genome id per square) and a shared table of
//! genomes compiled for its board size ([`CompiledGenome`]: precomputed walks, rules §3). Moves are
//! listed in the reference's order ([`Position::moves_from`]), made as rules §4 says
//! ([`Position::make`], with the random debuffs' draws recorded), and counted by [`perft`].
//!
//! Above the position: a [`Game`] (setup, turns, clocks and freezes, every ending; time passed in
//! as instants, [`Timestamp`], and durations, [`Millis`], randomness from a per-game seed), a
//! [`Lab`] (the sandbox), the views each viewer may see ([`GameView`], [`LabView`]), and records
//! that [`replay`] exactly.

mod bitboard;
mod board;
mod clock;
mod compile;
mod compiled_cache;
mod danger;
mod event_log;
mod game;
mod game_error;
mod game_snapshot;
mod lab;
mod movegen;
#[cfg(feature = "openapi")]
pub mod openapi;
mod perft;
mod piece;
mod position;
mod rays;
mod record;
mod rng;
mod snapshot;
mod species;
mod square;
mod table;
pub mod vector;
mod view;

#[cfg(test)]
mod danger_tests;
#[cfg(test)]
mod first_move_tests;
#[cfg(test)]
mod game_tests;
#[cfg(test)]
mod increment_draw_tests;
#[cfg(test)]
mod movegen_proptests;
#[cfg(test)]
mod proptests;
#[cfg(test)]
mod random_tests;
#[cfg(test)]
mod tests;

pub use bitboard::{BitIter, Bitboard};
pub use board::Board;
pub use clock::Clock;
pub use compile::{CompiledGenome, Effect, Leave, Party, TargetKind};
pub use danger::KingRisks;
pub use event_log::EventLog;
pub use game::{
    DrawOffer, FIRST_MOVE, FREEZE, Game, GameError, GameStatus, Reason, Seat, Settings,
};
pub use game_error::RefusalCode;
pub use game_snapshot::GameSnapshot;
pub use gmo_genome::{Content, Debuff};
/// The engine's time, re-exported so that its callers need not depend on `gmo-types` for it.
pub use gmo_types::{Millis, Timestamp};
pub use lab::{Lab, LabError, LabPieceView, LabSnapshot, LabView};
pub use movegen::{LegalMove, destinations_on, for_each_move_on};
pub use perft::{PROMOTION_GENOMES, divide, perft};
pub use piece::{GenomeId, Piece};
pub use position::{
    Drawn, Draws, EndReason, GameResult, Mode, MovePly, PlayError, Position, PromotionPly, Status,
    king_rule,
};
pub use record::{Event, GameRecord, ReplayError, replay};
pub use snapshot::{BadData, BoardData, PlacedPiece};
pub use species::species_labels;
pub use square::{BadSize, BadSquare, BoardSize, ByColor, Color, Square};
pub use table::{GenomeTable, TableFull};
pub use vector::PerftVector;
pub use view::{
    ClocksView, GameView, LeaveView, MovePlyView, MoveTag, MoveView, PieceView, PlyView,
    PromotionPlyView, PromotionTag, Viewer, What, board_view,
};
