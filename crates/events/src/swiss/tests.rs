use super::*;
use crate::Outcome;
use crate::standings::standings;
use proptest::prelude::*;
use std::collections::HashSet;

fn played(round: &[Pairing], outcomes: impl Fn(usize) -> Outcome) -> Vec<Board> {
    round
        .iter()
        .enumerate()
        .map(|(i, p)| Board {
            white: p.white,
            black: p.black,
            outcome: Some(outcomes(i)),
        })
        .collect()
}

fn board(white: Team, black: Team) -> Pairing {
    Pairing {
        white,
        black: Some(black),
    }
}

const WHITE_FIRST: Settings = Settings {
    rounds: 9,
    top_seed_white: true,
};

#[test]
fn round_one_alternates_colours_down_the_boards() {
    let expected = vec![board(0, 4), board(5, 1), board(2, 6), board(7, 3)];
    assert_eq!(pair(8, &[], &WHITE_FIRST), Some(expected));
    let black_first = Settings {
        top_seed_white: false,
        ..WHITE_FIRST
    };
    let expected = vec![board(4, 0), board(1, 5), board(6, 2), board(3, 7)];
    assert_eq!(pair(8, &[], &black_first), Some(expected));
}

#[test]
fn round_two_winners_meet_winners_and_the_higher_ranked_gets_its_preference() {
    let first = pair(8, &[], &WHITE_FIRST).expect("round 1");
    let boards = played(&first, |_| Outcome::White);
    // Winners 0, 2, 5, 7 (S1 0, 2 against S2 5, 7), all White in round 1: the same preference,
    // so the higher-ranked gets it (Black). Losers 1, 3, 4, 6, all Black: 1 and 3 get White.
    let second = pair(8, &boards, &WHITE_FIRST).expect("round 2");
    let expected = vec![board(5, 0), board(7, 2), board(1, 4), board(3, 6)];
    assert_eq!(second, expected);
}

#[test]
fn the_bye_goes_to_the_last_team_of_round_one() {
    let first = pair(5, &[], &WHITE_FIRST).expect("round 1");
    assert_eq!(
        first,
        vec![
            board(0, 2),
            board(3, 1),
            Pairing {
                white: 4,
                black: None
            }
        ]
    );
}

#[test]
fn a_team_two_whites_up_gets_black() {
    // Team 0 had White twice, team 2 Black twice; 1 and 3 are level.
    let game = |white, black| Board {
        white,
        black: Some(black),
        outcome: Some(Outcome::Draw),
    };
    let boards = [game(0, 3), game(1, 2), game(0, 2), game(3, 1)];
    let next = pair(4, &boards, &WHITE_FIRST).expect("0–1 is the only pair left");
    assert_eq!(next, vec![board(1, 0), board(2, 3)]);
}

#[test]
fn two_teams_two_whites_up_cannot_meet_before_the_last_round() {
    let game = |white, black| Board {
        white,
        black: Some(black),
        outcome: Some(Outcome::Draw),
    };
    // 0 and 1 are both two whites up; they have met everyone else.
    let boards = [game(0, 2), game(1, 3), game(0, 3), game(1, 2)];
    assert_eq!(pair(4, &boards, &WHITE_FIRST), None);
}

#[test]
fn in_the_last_round_topscorers_may_break_the_colour_limits() {
    let game = |white, black, outcome| Board {
        white,
        black: Some(black),
        outcome: Some(outcome),
    };
    // 0 and 1 won twice with White (4 half points of 4): both must have Black next, unless
    // it is the last round and they are topscorers. The expected pairings are bbpPairings'
    // (`--dutch -p` on this history with `XXR 3`, then `XXR 9`).
    let boards = [
        game(0, 2, Outcome::White),
        game(1, 3, Outcome::White),
        game(4, 5, Outcome::Draw),
        game(0, 3, Outcome::White),
        game(1, 4, Outcome::White),
        game(5, 2, Outcome::Draw),
    ];
    let last = Settings {
        rounds: 3,
        ..WHITE_FIRST
    };
    let expected = vec![board(1, 0), board(3, 5), board(2, 4)];
    assert_eq!(pair(6, &boards, &last), Some(expected));
    let not_last = vec![board(5, 0), board(2, 1), board(3, 4)];
    assert_eq!(pair(6, &boards, &WHITE_FIRST), Some(not_last));
}

#[test]
fn only_rematches_left_is_none() {
    let mut boards = Vec::new();
    for round in crate::berger::rounds(6, false) {
        boards.extend(played(&round, |_| Outcome::Draw));
    }
    assert_eq!(pair(6, &boards, &WHITE_FIRST), None);
    let round = pair(2, &[], &WHITE_FIRST).expect("round 1");
    assert_eq!(
        pair(2, &played(&round, |_| Outcome::White), &WHITE_FIRST),
        None
    );
}

#[test]
fn every_team_had_its_bye() {
    let byes: Vec<Board> = (0..3)
        .map(|t| Board {
            white: t,
            black: None,
            outcome: None,
        })
        .collect();
    assert_eq!(pair(3, &byes, &WHITE_FIRST), None);
    assert_eq!(pair(0, &[], &WHITE_FIRST), Some(vec![]));
}

/// What the earlier rounds say, counted independently of the engine.
struct Facts {
    met: HashSet<(Team, Team)>,
    difference: Vec<i32>,
    /// Per team, its colours in order (true White).
    colours: Vec<Vec<bool>>,
    byes: Vec<u32>,
}

fn key(a: Team, b: Team) -> (Team, Team) {
    (a.min(b), a.max(b))
}

fn facts(teams: usize, boards: &[Board]) -> Facts {
    let mut facts = Facts {
        met: HashSet::new(),
        difference: vec![0; teams],
        colours: vec![Vec::new(); teams],
        byes: vec![0; teams],
    };
    for b in boards {
        match b.black {
            None => facts.byes[b.white] += 1,
            Some(black) => {
                facts.met.insert(key(b.white, black));
                facts.difference[b.white] += 1;
                facts.difference[black] -= 1;
                facts.colours[b.white].push(true);
                facts.colours[black].push(false);
            }
        }
    }
    facts
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn pairings_keep_the_absolute_criteria(
        teams in 2usize..=24,
        results in proptest::collection::vec(0u8..3, 20 * 12),
        top_seed_white in any::<bool>(),
    ) {
        // More rounds than are played: no last-round exception applies.
        let settings = Settings { rounds: 30, top_seed_white };
        let mut boards: Vec<Board> = Vec::new();
        let mut results = results.into_iter().cycle();
        for round in 1..=(teams - 1).min(20) {
            let Some(pairings) = pair(teams, &boards, &settings) else {
                prop_assert!(
                    teams > 12 || round > teams / 2,
                    "no pairing for round {} of {} teams", round, teams
                );
                break;
            };
            let before = facts(teams, &boards);
            let table = standings(teams, &boards);
            let mut points = vec![0; teams];
            for l in &table {
                points[l.team] = l.points;
            }
            let mut seen = vec![false; teams];
            let mut byes = Vec::new();
            for p in &pairings {
                for t in std::iter::once(p.white).chain(p.black) {
                    prop_assert!(t < teams && !seen[t], "team {} twice or unknown", t);
                    seen[t] = true;
                }
                match p.black {
                    None => byes.push(p.white),
                    Some(black) => {
                        prop_assert!(!before.met.contains(&key(p.white, black)), "rematch");
                        prop_assert!(before.difference[p.white] < 2, "a third white");
                        prop_assert!(before.difference[black] > -2, "a third black");
                        let last_two = |t: Team, white: bool| {
                            before.colours[t].len() >= 2
                                && before.colours[t].iter().rev().take(2).all(|&c| c == white)
                        };
                        prop_assert!(!last_two(p.white, true), "three whites in a row");
                        prop_assert!(!last_two(black, false), "three blacks in a row");
                    }
                }
            }
            prop_assert!(seen.iter().all(|&s| s));
            prop_assert_eq!(byes.len(), teams % 2);
            if let Some(&bye) = byes.first() {
                prop_assert_eq!(pairings.last().and_then(|p| p.black), None);
                prop_assert_eq!(before.byes[bye], 0, "second bye for {}", bye);
            }
            // Boards by the higher score of the pair, best first.
            let tops: Vec<u32> = pairings
                .iter()
                .filter_map(|p| p.black.map(|b| points[p.white].max(points[b])))
                .collect();
            prop_assert!(tops.windows(2).all(|w| w[0] >= w[1]));
            // Round 1: seed i against seed i + n/2, colours alternating down the boards.
            if round == 1 {
                let half = teams / 2;
                for (i, p) in pairings.iter().filter(|p| p.black.is_some()).enumerate() {
                    let top_white = (i % 2 == 0) == top_seed_white;
                    let expected = if top_white { (i, Some(i + half)) } else { (i + half, Some(i)) };
                    prop_assert_eq!((p.white, p.black), expected);
                }
            }
            let outcomes = [Outcome::White, Outcome::Black, Outcome::Draw];
            for p in &pairings {
                let pick = results.next().map_or(0, usize::from);
                boards.push(Board {
                    white: p.white,
                    black: p.black,
                    outcome: Some(outcomes[pick]),
                });
            }
            let after = facts(teams, &boards);
            prop_assert!(after.difference.iter().all(|d| (-2..=2).contains(d)));
            prop_assert!(after.byes.iter().all(|&b| b <= 1));
        }
    }
}
