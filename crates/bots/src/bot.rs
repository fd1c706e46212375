//! What every bot offers: choose a ply for a position within a budget.

use gmo_engine::{Color, Game, GameError, PlayError, Position, Square, Timestamp};
use gmo_genome::{Genome, standard};
use rand::RngCore;
use std::fmt;
use std::time::Duration;

/// How much a bot may think about one ply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// Wall-clock time: results may vary from run to run with the machine's load.
    Time(Duration),
    /// Search nodes: the same position and budget always give the same ply.
    Nodes(u64),
    /// A fixed search depth in plies (deterministic, for tests and analysis).
    Depth(u32),
}

impl Budget {
    pub const fn millis(ms: u64) -> Budget {
        Budget::Time(Duration::from_millis(ms))
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Time(time) => write!(f, "{}ms", time.as_millis()),
            Budget::Nodes(nodes) => write!(f, "{nodes}n"),
            Budget::Depth(depth) => write!(f, "{depth}d"),
        }
    }
}

/// A ply a bot chose: a move, or the promotion of the due pawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ply {
    Move { from: Square, to: Square },
    Promotion { at: Square, genome: Genome },
}

impl Ply {
    /// Plays this ply in a live game for `color` at `now`, through the game's own checks.
    pub fn play(&self, game: &mut Game, color: Color, now: Timestamp) -> Result<(), GameError> {
        match self {
            Ply::Move { from, to } => game.play(color, *from, *to, now).map(|_| ()),
            Ply::Promotion { genome, .. } => game.promote(color, genome, now).map(|_| ()),
        }
    }

    /// Plays this ply on a bare position (game rules), drawing random debuffs from `rng`.
    pub fn play_on(&self, position: &mut Position, rng: &mut dyn RngCore) -> Result<(), PlayError> {
        match self {
            Ply::Move { from, to } => position.play(*from, *to, rng).map(|_| ()),
            Ply::Promotion { genome, .. } => position.promote(genome).map(|_| ()),
        }
    }
}

impl fmt::Display for Ply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ply::Move { from, to } => write!(f, "{from}{to}"),
            Ply::Promotion { at, genome } => {
                let dna = genome.to_string();
                let name = standard::STANDARD.iter().find(|(_, d)| *d == dna);
                match name {
                    Some((name, _)) => write!(f, "{at}={name}"),
                    None => write!(f, "{at}={}", genome.code()),
                }
            }
        }
    }
}

/// A computer player. A bot reads the position it is given and never changes it; it may keep
/// state of its own between calls (a random generator, a transposition table).
pub trait Bot: Send + fmt::Debug {
    fn name(&self) -> &str;

    /// A legal ply for the side to move, or `None` when the game is over (or, only with a full
    /// genome table, when no promotion genome can be named).
    fn choose(&mut self, position: &Position, budget: Budget) -> Option<Ply>;

    /// Search nodes visited so far, over every call (0 for bots that do not search).
    fn nodes(&self) -> u64 {
        0
    }

    /// A ply for the side to move in a game that is in progress (`None` otherwise): what a
    /// service seats. Clocks and freezes are the caller's business.
    fn choose_for_game(&mut self, game: &Game, budget: Budget) -> Option<Ply> {
        game.to_move()?;
        self.choose(game.position(), budget)
    }
}
