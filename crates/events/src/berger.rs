//! Round robins by the FIDE Berger tables (Handbook C.05, Annex 1).
//!
//! The tables are the ones arbiters print, so a schedule here can be checked against paper. With
//! an odd number of teams a phantom team is added, as the handbook says; meeting it is a bye. The
//! handbook lists the board of the last player first: that order is kept, except that a bye goes
//! last, as in a Swiss round, because it is no board to sit at.

use crate::{Pairing, Team};

/// Every round of a round robin between `teams` teams, in order.
///
/// An even number n of teams plays n − 1 rounds, an odd one n rounds (each team sits out once).
/// `double` appends a second cycle with the same boards in the same order, colours swapped.
pub fn rounds(teams: usize, double: bool) -> Vec<Vec<Pairing>> {
    let players = teams + teams % 2;
    let mut cycle: Vec<Vec<Pairing>> = (1..players).map(|r| round(players, r)).collect();
    for boards in &mut cycle {
        // The phantom is the last player; whoever meets it sits out.
        let mut byes = Vec::new();
        boards.retain(|b| {
            let phantom = |t: Team| t >= teams;
            match (phantom(b.white), b.black.map(phantom)) {
                (true, _) => {
                    byes.extend(b.black.map(|t| Pairing {
                        white: t,
                        black: None,
                    }));
                    false
                }
                (false, Some(true)) => {
                    byes.push(Pairing {
                        white: b.white,
                        black: None,
                    });
                    false
                }
                _ => true,
            }
        });
        boards.append(&mut byes);
    }
    if double {
        let second: Vec<Vec<Pairing>> = cycle
            .iter()
            .map(|boards| boards.iter().map(|&b| swapped(b)).collect())
            .collect();
        cycle.extend(second);
    }
    cycle
}

fn swapped(board: Pairing) -> Pairing {
    match board.black {
        Some(black) => Pairing {
            white: black,
            black: Some(board.white),
        },
        None => board,
    }
}

/// Round `r` (1-based) of the table for an even number of `players`, as team indices
/// (player k of the table is team k − 1).
fn round(players: usize, r: usize) -> Vec<Pairing> {
    let cycle = players - 1;
    // Players 1..players−1 rotate on a circle; the last player sits in the middle.
    let on_circle = |x: usize| (x + cycle - 1) % cycle + 1;
    let p = ((r - 1) * players / 2) % cycle + 1;
    let last = players;
    let (white, black) = if r % 2 == 1 { (p, last) } else { (last, p) };
    let mut boards = vec![Pairing {
        white: white - 1,
        black: Some(black - 1),
    }];
    for k in 1..players / 2 {
        // Adding `cycle` keeps p − k positive before the wrap.
        boards.push(Pairing {
            white: on_circle(p + k) - 1,
            black: Some(on_circle(p + cycle - k) - 1),
        });
    }
    boards
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashSet;

    /// A table in the handbook's notation: "white-black" with players numbered from 1.
    fn table(rounds: &[&[(usize, usize)]]) -> Vec<Vec<Pairing>> {
        rounds
            .iter()
            .map(|boards| {
                boards
                    .iter()
                    .map(|&(w, b)| Pairing {
                        white: w - 1,
                        black: Some(b - 1),
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn four_players_match_the_fide_table() {
        let expected = table(&[&[(1, 4), (2, 3)], &[(4, 3), (1, 2)], &[(2, 4), (3, 1)]]);
        assert_eq!(rounds(4, false), expected);
    }

    #[test]
    fn six_players_match_the_fide_table() {
        let expected = table(&[
            &[(1, 6), (2, 5), (3, 4)],
            &[(6, 4), (5, 3), (1, 2)],
            &[(2, 6), (3, 1), (4, 5)],
            &[(6, 5), (1, 4), (2, 3)],
            &[(3, 6), (4, 2), (5, 1)],
        ]);
        assert_eq!(rounds(6, false), expected);
    }

    #[test]
    fn eight_players_match_the_fide_table() {
        let expected = table(&[
            &[(1, 8), (2, 7), (3, 6), (4, 5)],
            &[(8, 5), (6, 4), (7, 3), (1, 2)],
            &[(2, 8), (3, 1), (4, 7), (5, 6)],
            &[(8, 6), (7, 5), (1, 4), (2, 3)],
            &[(3, 8), (4, 2), (5, 1), (6, 7)],
            &[(8, 7), (1, 6), (2, 5), (3, 4)],
            &[(4, 8), (5, 3), (6, 2), (7, 1)],
        ]);
        assert_eq!(rounds(8, false), expected);
    }

    #[test]
    fn five_players_use_the_six_player_table_with_byes_last() {
        let bye = |t: usize| Pairing {
            white: t - 1,
            black: None,
        };
        let board = |w: usize, b: usize| Pairing {
            white: w - 1,
            black: Some(b - 1),
        };
        let expected = vec![
            vec![board(2, 5), board(3, 4), bye(1)],
            vec![board(5, 3), board(1, 2), bye(4)],
            vec![board(3, 1), board(4, 5), bye(2)],
            vec![board(1, 4), board(2, 3), bye(5)],
            vec![board(4, 2), board(5, 1), bye(3)],
        ];
        assert_eq!(rounds(5, false), expected);
    }

    #[test]
    fn the_second_cycle_swaps_colours() {
        let all = rounds(5, true);
        assert_eq!(all.len(), 10);
        for (first, second) in all[..5].iter().zip(&all[5..]) {
            for (a, b) in first.iter().zip(second) {
                match a.black {
                    Some(black) => assert_eq!((b.white, b.black), (black, Some(a.white))),
                    None => assert_eq!(a, b),
                }
            }
        }
    }

    #[test]
    fn no_team_no_round() {
        assert!(rounds(0, true).is_empty());
        assert_eq!(
            rounds(1, false),
            vec![vec![Pairing {
                white: 0,
                black: None
            }]]
        );
    }

    proptest! {
        #[test]
        fn every_pair_meets_once_per_cycle(teams in 2usize..=64, double: bool) {
            let all = rounds(teams, double);
            let per_cycle = teams - 1 + teams % 2;
            let cycles = if double { 2 } else { 1 };
            prop_assert_eq!(all.len(), per_cycle * cycles);
            for cycle in all.chunks(per_cycle) {
                let mut met = HashSet::new();
                let mut byes = vec![0; teams];
                for round in cycle {
                    let mut seen = vec![false; teams];
                    for board in round {
                        let mut sit = |t: usize| -> Result<(), TestCaseError> {
                            prop_assert!(t < teams);
                            prop_assert!(!seen[t], "team {} twice in a round", t);
                            seen[t] = true;
                            Ok(())
                        };
                        sit(board.white)?;
                        match board.black {
                            Some(black) => {
                                sit(black)?;
                                let pair = (board.white.min(black), board.white.max(black));
                                prop_assert!(met.insert(pair), "{:?} meet twice", pair);
                            }
                            None => byes[board.white] += 1,
                        }
                    }
                    prop_assert!(seen.iter().all(|&s| s), "someone missing from a round");
                }
                prop_assert_eq!(met.len(), teams * (teams - 1) / 2);
                let expected_byes = teams % 2;
                prop_assert!(byes.iter().all(|&b| b == expected_byes));
            }
        }
    }
}
