//! Named back ranks for bot games: the standard `default`, and a 5-wide one for 5×5 boards.

use crate::lineup::Lineup;
use gmo_engine::{Color, Game, GameError, Timestamp};
use gmo_genome::{Genome, standard};

/// A back rank of standard pieces, file a first, with the file of its king.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preset {
    pub name: &'static str,
    pub pieces: &'static [&'static str],
    pub king_file: u8,
}

/// Rook, knight, bishop, king, queen, bishop, knight, rook; the king on file d.
pub const DEFAULT: Preset = Preset {
    name: "default",
    pieces: &standard::DEFAULT_PRESET,
    king_file: 3,
};

/// For 5-wide boards: rook, knight, king, bishop, queen; the king on file c, the middle.
pub const FIVE_WIDE: Preset = Preset {
    name: "five",
    pieces: &["rook", "knight", "king", "bishop", "queen"],
    king_file: 2,
};

pub const PRESETS: [Preset; 2] = [DEFAULT, FIVE_WIDE];

pub fn preset_by_name(name: &str) -> Option<Preset> {
    PRESETS.into_iter().find(|p| p.name == name)
}

impl Preset {
    pub fn width(&self) -> usize {
        self.pieces.len()
    }

    /// The genomes, file a first (the names are the genome crate's own).
    pub fn genomes(&self) -> Vec<Genome> {
        self.pieces
            .iter()
            .filter_map(|name| standard::by_name(name))
            .collect()
    }

    /// Sets up `color`'s side of a game in setup: loads the preset, marks the king, declares
    /// ready (the game starts at `now` once both sides are).
    pub fn seat(&self, game: &mut Game, color: Color, now: Timestamp) -> Result<(), GameError> {
        Lineup::from(*self).seat(game, color, now)
    }
}
