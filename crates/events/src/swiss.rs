//! Swiss pairings by FIDE's Dutch system (C.04.3, with the 2025 changes).
//!
//! Teams are ranked by score, then by pairing number (their index: registration order). The
//! absolute criteria decide who may meet: never twice, no team gets a third colour in a row or
//! a colour imbalance over two (except, in the last round, pairs with a team above half the
//! points), and no team gets a second pairing-allocated bye. Within them the quality criteria
//! pick the pairing, bracket by bracket from the top score down, and the colours follow
//! C.04.3 E (see [`colours`]). The engine is [`dutch`]; it is checked round by round against
//! bbpPairings on the reference tournaments in `tests/dutch/`.

mod colours;
mod dutch;
mod matching;
mod players;
mod wide;

use crate::{Board, Pairing, Team};
use players::Colour;

/// What an event fixes for its pairings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// The event's number of rounds: the last one relaxes the colour limits for topscorers.
    pub rounds: u32,
    /// The initial colour: whether the top seed (team 0) has White in round 1; down the boards
    /// the colours alternate.
    pub top_seed_white: bool,
}

impl Default for Settings {
    /// Twenty rounds (the most an event has), the top seed White.
    fn default() -> Self {
        Settings {
            rounds: 20,
            top_seed_white: true,
        }
    }
}

/// The next round's pairings after `boards` (every board of every earlier round, in the order
/// played: a team's k-th board is its round k), or None when no pairing keeps the absolute
/// criteria.
///
/// Boards are ordered by the higher score of their pair, best first, then by the sum of both
/// scores, then by the better pairing number; the bye, if any, is last. Points come from the
/// outcomes as in [`crate::standings::standings`] (a board without an outcome gives none).
pub fn pair(teams: usize, boards: &[Board], settings: &Settings) -> Option<Vec<Pairing>> {
    let players = players::players(teams, boards);
    let pairs = dutch::pair(&players, settings.rounds)?;
    let initial = if settings.top_seed_white {
        Colour::White
    } else {
        Colour::Black
    };
    let mut pairings: Vec<Pairing> = dutch::colours(&players, &pairs, initial)
        .into_iter()
        .map(|(white, black)| Pairing { white, black })
        .collect();
    let score = |t: Team| players[t].score;
    pairings.sort_by_key(|p| match p.black {
        None => (1, 0, 0, 0),
        Some(b) => {
            let (w, b) = (p.white, b);
            let higher = score(w).max(score(b));
            (
                0,
                u32::MAX - higher,
                u32::MAX - score(w) - score(b),
                w.min(b),
            )
        }
    });
    Some(pairings)
}

#[cfg(test)]
mod tests;
