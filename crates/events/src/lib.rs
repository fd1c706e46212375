//! Team events of GMO chess: who meets whom in each round, and the standings.
//!
//! Pure computation: no I/O, no clock, no randomness. The service keeps the boards and calls these
//! functions with all of them each time, so nothing here holds state between rounds.
//!
//! Teams are indices `0..n` in registration order, which is also the seed order: index 0 is the
//! top seed, and it breaks every remaining tie.

pub mod berger;
pub mod standings;
pub mod swiss;
pub mod trf;

/// A team's index in registration (seed) order.
pub type Team = usize;

/// The result of one board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    White,
    Black,
    Draw,
}

/// One board of a round: `black: None` is a bye for `white`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pairing {
    pub white: Team,
    pub black: Option<Team>,
}

/// A board played (or being played): outcome None while the game goes on. A bye's outcome is
/// ignored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    pub white: Team,
    pub black: Option<Team>,
    pub outcome: Option<Outcome>,
}

/// A line of the standings.
///
/// `points` are half points (win 2, draw 1, bye 2). `tiebreak` is Sonneborn–Berger in quarter
/// points: over the games, the opponent's half points times one's own result in half points (a
/// win adds twice the opponent's half points, a draw adds them once, a bye adds nothing).
/// `played` counts boards with an outcome, byes excluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    pub team: Team,
    pub points: u32,
    pub tiebreak: u32,
    pub played: u32,
}
