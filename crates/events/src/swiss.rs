//! Swiss pairings as a maximum-weight perfect matching.
//!
//! The hard rules (no rematch, colour difference within ±2, one bye to the lowest-ranked team
//! that has had none) decide which edges exist, so no choice of weights can break them; the
//! weights only rank the legal pairings. A matching sees the whole round at once, where the
//! FIDE Dutch system's bracket-by-bracket search with backtracking would need pages of
//! transposition and exchange rules to reach the same place.
//!
//! The soft goals, most important first:
//! 1. meet one's own score: the sum of squared point differences of the pairs is minimal;
//! 2. Dutch-like halves: in a score group ranked 1..g, the team at place i (top half) meets the
//!    one at place i + g/2 (bottom half), else at least someone from the other half;
//! 3. colour preferences: a team with more blacks, or with Black last, gets White, and the
//!    other way round.
//!
//! Colours within a pair follow fixed rules, not the weights: White goes to the lower colour
//! difference (whites − blacks), then to the one that had Black last, then to the higher rank.
//! So in round 1 every top-half seed has White (seeds 1–5, 2–6, … with 1, 2, … White).

use crate::standings::{standings, valid};
use crate::{Board, Pairing, Team};
use mwmatching::{Edges, Matching, SENTINEL};
use std::collections::HashSet;

/// The next round's pairings after `boards` (every board of every earlier round), or None when
/// no pairing keeps the hard rules.
///
/// Boards are ordered by the higher score of their pair, best first (then by the better rank
/// in the pair); the bye, if any, is last. Every board given counts as a meeting and for colours
/// whatever its outcome; points come from the outcomes, as in [`standings`].
pub fn pair(teams: usize, boards: &[Board]) -> Option<Vec<Pairing>> {
    let history = History::new(teams, boards);
    // Best first: the order in which ties between equal scores are broken everywhere below.
    let ranked: Vec<(Team, u32)> = standings(teams, boards)
        .iter()
        .map(|l| (l.team, l.points))
        .collect();
    if teams % 2 == 0 {
        return pair_all(&ranked, &history);
    }
    // Lowest-ranked first; the next one only if the rest cannot be paired without the first.
    for &(bye, _) in ranked.iter().rev() {
        if history.had_bye[bye] {
            continue;
        }
        let rest: Vec<(Team, u32)> = ranked.iter().copied().filter(|&(t, _)| t != bye).collect();
        if let Some(mut pairings) = pair_all(&rest, &history) {
            pairings.push(Pairing {
                white: bye,
                black: None,
            });
            return Some(pairings);
        }
    }
    None
}

/// What the earlier rounds left each team with.
struct History {
    met: HashSet<(Team, Team)>,
    /// Whites − blacks over the boards played, byes not counted.
    difference: Vec<i32>,
    /// Whether the team's last board (not a bye) had it as White.
    last_white: Vec<Option<bool>>,
    had_bye: Vec<bool>,
}

impl History {
    fn new(teams: usize, boards: &[Board]) -> Self {
        let mut history = History {
            met: HashSet::new(),
            difference: vec![0; teams],
            last_white: vec![None; teams],
            had_bye: vec![false; teams],
        };
        for board in boards.iter().filter(|b| valid(teams, b)) {
            match board.black {
                None => history.had_bye[board.white] = true,
                Some(black) => {
                    history.met.insert(key(board.white, black));
                    history.difference[board.white] += 1;
                    history.difference[black] -= 1;
                    history.last_white[board.white] = Some(true);
                    history.last_white[black] = Some(false);
                }
            }
        }
        history
    }

    /// Colours for a pair whose first team is the higher ranked: (white, black).
    fn colours(&self, higher: Team, lower: Team) -> (Team, Team) {
        let (dh, dl) = (self.difference[higher], self.difference[lower]);
        let lower_first = dl < dh
            || (dl == dh
                && self.last_white[lower] == Some(false)
                && self.last_white[higher] != Some(false));
        if lower_first {
            (lower, higher)
        } else {
            (higher, lower)
        }
    }

    /// Whether `team` would get the colour it leans to (a team without a lean always does).
    fn pleased(&self, team: Team, white: bool) -> bool {
        let wants_white = match self.difference[team] {
            d if d < 0 => Some(true),
            d if d > 0 => Some(false),
            _ => self.last_white[team].map(|w| !w),
        };
        wants_white.is_none_or(|w| w == white)
    }
}

fn key(a: Team, b: Team) -> (Team, Team) {
    (a.min(b), a.max(b))
}

/// A perfect matching of `ranked` (best first, with points), or None if there is none.
fn pair_all(ranked: &[(Team, u32)], history: &History) -> Option<Vec<Pairing>> {
    let count = ranked.len();
    if count == 0 {
        return Some(Vec::new());
    }
    let groups = score_groups(ranked);
    let spread = {
        let most = ranked.iter().map(|&(_, p)| p).max().unwrap_or(0);
        let least = ranked.iter().map(|&(_, p)| p).min().unwrap_or(0);
        u64::from(most - least)
    };
    let pairs = count as u64 / 2;
    let scale = Scale::new(spread * spread, pairs, count as u64);
    let mut edges: Edges = Vec::new();
    let mut colours = Vec::new();
    for i in 0..count {
        for j in i + 1..count {
            let ((a, pa), (b, pb)) = (ranked[i], ranked[j]);
            if history.met.contains(&key(a, b)) {
                continue;
            }
            let (white, black) = history.colours(a, b);
            if history.difference[white] >= 2 || history.difference[black] <= -2 {
                continue;
            }
            let difference = u64::from(pa.abs_diff(pb));
            let pleased =
                u64::from(history.pleased(white, true)) + u64::from(history.pleased(black, false));
            let weight = scale.weight(
                spread * spread - difference * difference,
                halves(groups[i], groups[j]),
                pleased,
            );
            edges.push((i, j, weight));
            colours.push((white, black));
        }
    }
    if edges.is_empty() {
        return None;
    }
    let mates = Matching::new(edges.clone()).max_cardinality().solve();
    // The solver counts vertices up to the highest one with an edge: a shorter answer means
    // some team could meet nobody.
    if mates.len() != count || mates.contains(&SENTINEL) {
        return None;
    }
    let mut boards: Vec<(u32, usize, Pairing)> = edges
        .iter()
        .zip(&colours)
        .filter(|((i, j, _), _)| mates[*i] == *j)
        .map(|(&(i, _, _), &(white, black))| {
            // i is the higher ranked of the pair, so it has the higher score.
            (
                ranked[i].1,
                i,
                Pairing {
                    white,
                    black: Some(black),
                },
            )
        })
        .collect();
    boards.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
    Some(boards.into_iter().map(|(_, _, p)| p).collect())
}

/// A team's place in its score group: (first index of the group, place from 0, group size).
type Place = (usize, usize, usize);

fn score_groups(ranked: &[(Team, u32)]) -> Vec<Place> {
    let mut places = Vec::with_capacity(ranked.len());
    for group in ranked.chunk_by(|a, b| a.1 == b.1) {
        let first = places.len();
        places.extend((0..group.len()).map(|place| (first, place, group.len())));
    }
    places
}

/// The Dutch-like bonus of a pair, the first team ranked higher: 2 for the partner the Dutch
/// system would give (place i against place i + g/2), 1 for top half against bottom half.
fn halves(higher: Place, lower: Place) -> u64 {
    let ((group, i, size), (other, j, _)) = (higher, lower);
    let half = size / 2;
    if group != other || i >= half || j < half {
        // A float between groups, or both in one half.
        0
    } else if j == i + half {
        2
    } else {
        1
    }
}

/// The multipliers that make the three goals lexicographic in a single integer weight.
///
/// A level's multiplier exceeds the most that all lower levels can add over a whole matching,
/// so no gain below can pay for a loss above. The solver keeps its duals in `i32`, doubled, and
/// does not say how far beyond the largest weight they go when asked for max cardinality (random
/// graphs with weights near `i32::MAX / 3` overflowed in a trial); a dual bound by the vertex
/// count times the largest weight is safe, so the weights stay under
/// `i32::MAX / (4 × (vertices + 2))`. When the full encoding does not fit (hundreds of
/// teams, or a score spread of hundreds of points), the least important goals are dropped
/// first; the hard rules never depend on the weights.
struct Scale {
    /// Per level (score, halves, colours): its multiplier, 0 when dropped.
    multipliers: [u64; 3],
}

impl Scale {
    /// The largest value each level can take on one edge.
    const HALVES_MAX: u64 = 2;
    const PLEASED_MAX: u64 = 2;

    fn new(score_max: u64, pairs: u64, vertices: u64) -> Self {
        let limit = i32::MAX as u64 / (4 * (vertices + 2));
        let maxima = [score_max, Self::HALVES_MAX, Self::PLEASED_MAX];
        for kept in (1..=3).rev() {
            if let Some(multipliers) = Self::multipliers(&maxima[..kept], pairs) {
                let top: u64 = multipliers
                    .iter()
                    .zip(maxima)
                    .map(|(m, x)| m * x)
                    .sum::<u64>()
                    + 1;
                if top <= limit {
                    let mut all = [0; 3];
                    all[..kept].copy_from_slice(&multipliers);
                    return Scale { multipliers: all };
                }
            }
        }
        // Any legal pairing rather than none.
        Scale {
            multipliers: [0; 3],
        }
    }

    fn multipliers(maxima: &[u64], pairs: u64) -> Option<Vec<u64>> {
        let mut multipliers = vec![0; maxima.len()];
        // What all levels below the current one can add over a whole matching.
        let mut below: u64 = 0;
        for level in (0..maxima.len()).rev() {
            multipliers[level] = pairs.checked_mul(below)?.checked_add(1)?;
            below = below.checked_add(maxima[level].checked_mul(multipliers[level])?)?;
        }
        Some(multipliers)
    }

    /// Positive, so that every legal pair is worth something even without max cardinality; the
    /// constant 1 adds the same to every perfect matching.
    fn weight(&self, score: u64, halves: u64, pleased: u64) -> i32 {
        let [s, h, p] = self.multipliers;
        let weight = s * score + h * halves + p * pleased + 1;
        // `new` keeps every weight far under i32::MAX.
        i32::try_from(weight).unwrap_or(i32::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Outcome;
    use proptest::prelude::*;

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

    #[test]
    fn round_one_pairs_top_half_against_bottom_half_top_seeds_white() {
        let expected = vec![board(0, 4), board(1, 5), board(2, 6), board(3, 7)];
        assert_eq!(pair(8, &[]), Some(expected));
    }

    #[test]
    fn round_two_winners_meet_winners() {
        let first = pair(8, &[]).expect("round 1");
        let boards = played(&first, |_| Outcome::White);
        // Winners 0..4 all had White: equal differences, seed decides colours.
        let expected = vec![board(0, 2), board(1, 3), board(4, 6), board(5, 7)];
        assert_eq!(pair(8, &boards), Some(expected));
    }

    #[test]
    fn the_bye_goes_to_the_lowest_ranked_team_without_one() {
        let first = pair(5, &[]).expect("round 1");
        assert_eq!(
            first,
            vec![
                board(0, 2),
                board(1, 3),
                Pairing {
                    white: 4,
                    black: None
                }
            ]
        );
        // Winners and the bye have 2 half points; of the two losers, the lower seed ranks last.
        let boards = played(&first, |_| Outcome::Black);
        let second = pair(5, &boards).expect("round 2");
        assert_eq!(
            second.last(),
            Some(&Pairing {
                white: 1,
                black: None
            })
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
        let next = pair(4, &boards).expect("0–1 is the only pair left");
        assert_eq!(next, vec![board(1, 0), board(2, 3)]);
    }

    #[test]
    fn two_teams_two_whites_up_cannot_meet() {
        let game = |white, black| Board {
            white,
            black: Some(black),
            outcome: Some(Outcome::Draw),
        };
        // 0 and 1 are both two whites up; they have met everyone else.
        let boards = [game(0, 2), game(1, 3), game(0, 3), game(1, 2)];
        assert_eq!(pair(4, &boards), None);
    }

    #[test]
    fn only_rematches_left_is_none() {
        let mut boards = Vec::new();
        for round in crate::berger::rounds(6, false) {
            boards.extend(played(&round, |_| Outcome::Draw));
        }
        assert_eq!(pair(6, &boards), None);
        let round = pair(2, &[]).expect("round 1");
        assert_eq!(pair(2, &played(&round, |_| Outcome::White)), None);
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
        assert_eq!(pair(3, &byes), None);
        assert_eq!(pair(0, &[]), Some(vec![]));
    }

    #[test]
    fn scales_are_lexicographic() {
        let scale = Scale::new(16, 4, 8);
        let [s, h, p] = scale.multipliers;
        // Everything below a level, over a whole matching, is worth less than one step of it.
        assert!(4 * (h * Scale::HALVES_MAX + p * Scale::PLEASED_MAX) < s);
        assert!(4 * p * Scale::PLEASED_MAX < h);
        assert_eq!(p, 1);
        // Too large for i32 with every level: the least important ones go first.
        let huge = Scale::new(1 << 40, 4, 8);
        assert_eq!(huge.multipliers, [0; 3]);
        let wide = Scale::new(1 << 22, 4, 8);
        assert_eq!(wide.multipliers, [9, 1, 0]);
        let wider = Scale::new(1 << 24, 4, 8);
        assert_eq!(wider.multipliers, [1, 0, 0]);
    }

    /// What the earlier rounds say, counted again independently of `History`.
    struct Facts {
        met: HashSet<(Team, Team)>,
        difference: Vec<i32>,
        byes: Vec<u32>,
    }

    fn facts(teams: usize, boards: &[Board]) -> Facts {
        let mut facts = Facts {
            met: HashSet::new(),
            difference: vec![0; teams],
            byes: vec![0; teams],
        };
        for b in boards {
            match b.black {
                None => facts.byes[b.white] += 1,
                Some(black) => {
                    facts.met.insert(key(b.white, black));
                    facts.difference[b.white] += 1;
                    facts.difference[black] -= 1;
                }
            }
        }
        facts
    }

    /// The least sum of squared point differences over all legal pairings of `teams`.
    fn best_squares(teams: &[Team], points: &[u32], history: &History) -> Option<u64> {
        let (&first, rest) = teams.split_first()?;
        if rest.is_empty() {
            return None;
        }
        let mut best = None;
        for (k, &other) in rest.iter().enumerate() {
            if history.met.contains(&key(first, other)) {
                continue;
            }
            // Colours: the rule gives White to the lower difference, so only ±2 on both blocks.
            let (d1, d2) = (history.difference[first], history.difference[other]);
            if (d1 >= 2 && d2 >= 2) || (d1 <= -2 && d2 <= -2) {
                continue;
            }
            let gap = u64::from(points[first].abs_diff(points[other]));
            let remaining: Vec<Team> = rest
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != k)
                .map(|(_, &t)| t)
                .collect();
            let below = if remaining.is_empty() {
                Some(0)
            } else {
                best_squares(&remaining, points, history)
            };
            if let Some(below) = below {
                let total = below + gap * gap;
                best = Some(best.map_or(total, |b: u64| b.min(total)));
            }
        }
        best
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn pairings_keep_the_hard_rules(
            teams in 2usize..=24,
            results in proptest::collection::vec(0u8..3, 20 * 12),
        ) {
            let mut boards: Vec<Board> = Vec::new();
            let mut results = results.into_iter().cycle();
            for round in 1..=(teams - 1).min(20) {
                let Some(pairings) = pair(teams, &boards) else {
                    prop_assert!(
                        teams > 12 || round > teams / 2,
                        "no pairing for round {} of {} teams", round, teams
                    );
                    break;
                };
                let before = facts(teams, &boards);
                let table = standings(teams, &boards);
                let points: Vec<u32> = {
                    let mut p = vec![0; teams];
                    for l in &table {
                        p[l.team] = l.points;
                    }
                    p
                };
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
                        }
                    }
                }
                prop_assert!(seen.iter().all(|&s| s));
                prop_assert_eq!(byes.len(), teams % 2);
                if let Some(&bye) = byes.first() {
                    prop_assert_eq!(pairings.last().and_then(|p| p.black), None);
                    prop_assert_eq!(before.byes[bye], 0, "second bye for {}", bye);
                    // Anyone ranked lower without a bye could not have had it.
                    let history = History::new(teams, &boards);
                    let ranked: Vec<(Team, u32)> =
                        table.iter().map(|l| (l.team, l.points)).collect();
                    let at = ranked.iter().position(|&(t, _)| t == bye).expect("ranked");
                    for &(lower, _) in &ranked[at + 1..] {
                        if before.byes[lower] == 0 {
                            let rest: Vec<(Team, u32)> =
                                ranked.iter().copied().filter(|&(t, _)| t != lower).collect();
                            prop_assert!(pair_all(&rest, &history).is_none());
                        }
                    }
                }
                // Boards by the higher score of the pair, best first.
                let tops: Vec<u32> = pairings
                    .iter()
                    .filter_map(|p| p.black.map(|b| points[p.white].max(points[b])))
                    .collect();
                prop_assert!(tops.windows(2).all(|w| w[0] >= w[1]));
                // The first soft goal is met exactly: no legal pairing has smaller squares.
                if teams <= 10 {
                    let history = History::new(teams, &boards);
                    let paired: Vec<Team> = table
                        .iter()
                        .map(|l| l.team)
                        .filter(|t| !byes.contains(t))
                        .collect();
                    let ours: u64 = pairings
                        .iter()
                        .filter_map(|p| p.black.map(|b| points[p.white].abs_diff(points[b])))
                        .map(|d| u64::from(d) * u64::from(d))
                        .sum();
                    prop_assert_eq!(Some(ours), best_squares(&paired, &points, &history));
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
}
