//! Computer opponents for GMO chess.
//!
//! A [`Bot`] is given a position (or a [`gmo_engine::Game`], through
//! [`Bot::choose_for_game`]) and a [`Budget`], and returns a legal [`Ply`]: a move, or the
//! promotion when one is due. Bots only ever read what they are given; a caller that holds a live
//! game passes it by reference and plays the returned ply itself ([`Ply::play`]).
//!
//! Three bots ([`bot_by_name`], or a [`BotSpec`] such as `search:200ms`):
//! - `random`: uniform over the legal plies, from a seed;
//! - `greedy`: the best ply by a one-ply look at the evaluation;
//! - `search`: iterative-deepening alpha-beta with a transposition table.
//!
//! Random debuffs (deviation, mutation) are not foreseen: bots treat every move as landing where
//! it was asked, with the genome it had.

pub mod analysis;
mod bot;
mod eval;
mod greedy;
pub mod lines;
mod lineup;
mod node;
mod preset;
mod random;
mod search;
mod spec;
mod tt;
pub mod value;
mod values;
mod zobrist;

#[cfg(test)]
mod analysis_tests;
#[cfg(test)]
mod lines_tests;
#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod value_tests;

pub use bot::{Bot, Budget, Ply};
pub use greedy::GreedyBot;
pub use lineup::{BadLineup, Lineup, genome_ref};
pub use preset::{DEFAULT, FIVE_WIDE, PRESETS, Preset, preset_by_name};
pub use random::RandomBot;
pub use search::{SearchBot, SearchReport};
pub use spec::{BadSpec, BotKind, BotSpec, bot_by_name};
pub use zobrist::position_key;
