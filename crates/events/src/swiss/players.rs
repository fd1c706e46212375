//! What the earlier rounds left each team with, as the Dutch rules read it: score, colour
//! history and preference, floats, whether it may still get the bye.

use crate::standings::valid;
use crate::{Board, Outcome, Team};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// A team's board in one round: a game against `opponent` in `colour`, or the bye.
#[derive(Debug, Clone, Copy)]
pub enum Entry {
    Game { opponent: Team, colour: Colour },
    Bye,
}

/// Which way a team floated in a round (C.04.3 A.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Float {
    Down,
    Up,
    None,
}

#[derive(Debug, Clone)]
pub struct Player {
    pub team: Team,
    /// Half points (win or bye 2, draw 1).
    pub score: u32,
    /// Per round, the board and the half points it gave.
    pub rounds: Vec<(Entry, u32)>,
    /// Games played (byes not counted).
    pub played: u32,
    /// |whites − blacks|.
    pub imbalance: u32,
    /// The colour it should get next (A.6), if any.
    pub preference: Option<Colour>,
    /// The colour of its last two games when they were the same.
    pub repeated: Option<Colour>,
    /// A strong preference: an imbalance of one, not absolute.
    pub strong: bool,
    /// Never had the bye (a bye scores as a win, so one is the most a team gets).
    pub bye_eligible: bool,
}

impl Player {
    /// An absolute preference: imbalance over one, or the same colour twice in a row.
    pub fn absolute(&self) -> bool {
        self.absolute_imbalance() || self.repeated.is_some()
    }

    pub fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    /// The score before the last `back` rounds.
    pub fn score_back(&self, back: usize) -> u32 {
        let from = self.rounds.len().saturating_sub(back);
        self.score - self.rounds[from..].iter().map(|r| r.1).sum::<u32>()
    }
}

/// Each team's history from the boards of every earlier round, in the order played (a team's
/// k-th board is its round k).
pub fn players(teams: usize, boards: &[Board]) -> Vec<Player> {
    let mut rounds: Vec<Vec<(Entry, u32)>> = vec![Vec::new(); teams];
    for board in boards.iter().filter(|b| valid(teams, b)) {
        match board.black {
            None => rounds[board.white].push((Entry::Bye, 2)),
            Some(black) => {
                let (w, b) = match board.outcome {
                    Some(Outcome::White) => (2, 0),
                    Some(Outcome::Black) => (0, 2),
                    Some(Outcome::Draw) => (1, 1),
                    None => (0, 0),
                };
                rounds[board.white].push((
                    Entry::Game {
                        opponent: black,
                        colour: Colour::White,
                    },
                    w,
                ));
                rounds[black].push((
                    Entry::Game {
                        opponent: board.white,
                        colour: Colour::Black,
                    },
                    b,
                ));
            }
        }
    }
    rounds
        .into_iter()
        .enumerate()
        .map(|(team, rounds)| player(team, rounds))
        .collect()
}

fn player(team: Team, rounds: Vec<(Entry, u32)>) -> Player {
    let colours: Vec<Colour> = rounds
        .iter()
        .filter_map(|r| match r.0 {
            Entry::Game { colour, .. } => Some(colour),
            Entry::Bye => None,
        })
        .collect();
    let whites = colours.iter().filter(|&&c| c == Colour::White).count() as u32;
    let blacks = colours.len() as u32 - whites;
    let lower = if whites > blacks {
        Colour::Black
    } else {
        Colour::White
    };
    let imbalance = whites.abs_diff(blacks);
    let last = colours.last().copied();
    let run = last.map_or(0, |c| colours.iter().rev().take_while(|&&x| x == c).count());
    // A.6: an imbalance over one, then two in a row, then an imbalance of one, then the other
    // colour than last time.
    let preference = if imbalance > 1 {
        Some(lower)
    } else if run > 1 {
        last.map(Colour::other)
    } else if imbalance > 0 {
        Some(lower)
    } else {
        last.map(Colour::other)
    };
    let repeated = if run > 1 { last } else { None };
    let absolute = imbalance > 1 || repeated.is_some();
    Player {
        team,
        score: rounds.iter().map(|r| r.1).sum(),
        played: colours.len() as u32,
        imbalance,
        preference,
        repeated,
        strong: !absolute && imbalance > 0,
        bye_eligible: !rounds.iter().any(|r| matches!(r.0, Entry::Bye)),
        rounds,
    }
}

/// How `player` floated `back` rounds ago (1 the last round): a bye is a down float; a game
/// against a team that had a lower score before that round is a down float, a higher one up.
pub fn float(players: &[Player], player: &Player, back: usize) -> Float {
    let Some(index) = player.rounds.len().checked_sub(back) else {
        return Float::None;
    };
    match player.rounds[index].0 {
        Entry::Bye => Float::Down,
        Entry::Game { opponent, .. } => {
            let own = player.score_back(back);
            let theirs = players[opponent].score_back(back);
            match own.cmp(&theirs) {
                std::cmp::Ordering::Greater => Float::Down,
                std::cmp::Ordering::Less => Float::Up,
                std::cmp::Ordering::Equal => Float::None,
            }
        }
    }
}
