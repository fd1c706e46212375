//! The Dutch system (FIDE C.04.3, 2025) as a sequence of maximum-weight matchings.
//!
//! Every pair of teams that may meet (the absolute criteria: no rematch, no third colour in a
//! row or imbalance over two unless a topscorer's last round, one bye at most) is an edge; its
//! weight is a long binary number with one field per criterion, the most important highest, so
//! that a heavier matching is one that is better by the first criterion where two differ:
//! completion and the bye's place, then per bracket the number of pairs and the scores paired
//! (C.6–C.8), the bye's unplayed games (C.9), colours (C.10–C.13), repeated floaters (C.14–C.21).
//! The brackets are then paired from the top down: each solve fixes what it may (which moved-down
//! teams are paired, their opponents, the exchanges between S1 and S2 with the smallest
//! differences of bracket sequence numbers, then S1's opponents in order) and the next bracket
//! starts from what is left. This is the formulation of bbpPairings (the FIDE-endorsed program
//! the tests compare with), written again from the rules and its description.

use super::colours::compatible_preferences;
use super::matching::maximum_matching;
use super::players::{Colour, Float, Player, float};
use super::wide::Wide;
use crate::Team;
use std::collections::HashMap;

/// The facts every weight reads.
struct Round<'a> {
    /// The teams in pairing order: score descending, then pairing number.
    sorted: Vec<&'a Player>,
    all: &'a [Player],
    met: Vec<Vec<bool>>,
    /// Rounds already played.
    played: usize,
    /// Whether this is the event's last round (topscorers may then break colour limits).
    last: bool,
    /// Per score, the position of its group's bits in a score field (lowest scores lowest).
    shifts: HashMap<u32, u32>,
    /// The width of a score field (sum over groups of the bits of their sizes).
    score_bits: u32,
    /// The width of a count field (bits of the largest group's size).
    size_bits: u32,
}

fn bits_for(value: usize) -> u32 {
    usize::BITS - value.leading_zeros()
}

fn flag<const N: usize>(b: bool) -> Wide<N> {
    Wide::from_u64(u64::from(b))
}

impl<'a> Round<'a> {
    fn new(all: &'a [Player], rounds: u32) -> Round<'a> {
        let mut sorted: Vec<&Player> = all.iter().collect();
        sorted.sort_by(|a, b| b.score.cmp(&a.score).then(a.team.cmp(&b.team)));
        let mut met = vec![vec![false; all.len()]; all.len()];
        for p in all {
            for r in &p.rounds {
                if let super::players::Entry::Game { opponent, .. } = r.0 {
                    met[p.team][opponent] = true;
                }
            }
        }
        let mut shifts = HashMap::new();
        let mut score_bits = 0;
        let mut largest = 0;
        for group in sorted.chunk_by(|a, b| a.score == b.score).rev() {
            shifts.insert(group[0].score, score_bits);
            score_bits += bits_for(group.len());
            largest = largest.max(group.len());
        }
        let played = all.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
        Round {
            sorted,
            all,
            met,
            played,
            last: played + 1 >= rounds as usize,
            shifts,
            score_bits,
            size_bits: bits_for(largest),
        }
    }

    fn shift(&self, score: u32) -> u32 {
        self.shifts.get(&score).copied().unwrap_or(0)
    }

    /// The absolute criteria: no rematch; two teams with the same absolute colour preference
    /// only in the last round when one of them scored over half the points.
    fn compatible(&self, a: &Player, b: &Player) -> bool {
        if self.met[a.team][b.team] {
            return false;
        }
        let threshold = self.played as u32; // half of 2 half points per round
        !a.absolute()
            || !b.absolute()
            || a.preference != b.preference
            || (self.last && (a.score > threshold || b.score > threshold))
    }

    fn float(&self, p: &Player, back: usize) -> Float {
        float(self.all, p, back)
    }

    /// The total width of a weight, its fields from the top down as in [`Round::weight`].
    fn weight_bits(&self) -> u32 {
        let (s, g) = (self.score_bits, self.size_bits);
        let floats = match self.played {
            0 => 0,
            1 => 2 * g + 2 * s,
            _ => 4 * g + 4 * s,
        };
        2 + 2 * (g + s) + 2 * g + 4 * g + floats + 3 * g + 1
    }
}

/// What the bye decides for the weights.
#[derive(Clone, Copy)]
struct Bye<'m> {
    /// The score of the team that gets it (0 for an even count).
    score: u32,
    /// Whether the current bracket's only downfloater is the bye's team (C.9 then applies).
    single_downfloater: bool,
    /// Per games played, the rank of the bye candidates with that many (fewest unplayed first).
    ranks: &'m HashMap<u32, u64>,
}

impl Round<'_> {
    /// The weight of pairing `higher` with `lower` (higher comes first in pairing order);
    /// `current`/`next`: whether `lower` is in the bracket being paired or the one after it.
    fn weight<const N: usize>(
        &self,
        higher: &Player,
        lower: &Player,
        current: bool,
        next: bool,
        bye: Bye,
    ) -> Wide<N> {
        if !self.compatible(higher, lower) {
            return Wide::ZERO;
        }
        let (s, g) = (self.score_bits, self.size_bits);
        let candidate = |p: &Player| p.bye_eligible && p.score <= bye.score;
        let score_bit = |p: &Player| Wide::bit(self.shift(p.score));
        let when = |c: bool, w: Wide<N>| if c { w } else { Wide::ZERO };
        // Completion, and the bye to a team that may have it.
        let mut w =
            Wide::from_u64(1 + u64::from(!candidate(higher)) + u64::from(!candidate(lower)));
        // C.6/C.7: pairs, then scores, in this bracket and in the next.
        w = w.push(g, flag(current));
        w = w.push(s, when(current, score_bit(higher)));
        w = w.push(g, flag(next));
        w = w.push(s, when(next, score_bit(higher)));
        // C.9: the bye's team with the fewest unplayed games.
        let mut unplayed = Wide::ZERO;
        if bye.single_downfloater {
            for p in [higher, lower] {
                if p.score == bye.score {
                    let rank = bye.ranks.get(&p.played).copied().unwrap_or(0);
                    unplayed = unplayed.add(Wide::from_u64(rank));
                }
            }
        }
        w = w.push(2 * g, unplayed);
        w = self.colour_fields(w, lower, higher, current);
        let (down, up) = (Float::Down, Float::Up);
        for back in 1..=self.played.min(2) {
            // C.14–C.17: repeated floaters from one and two rounds before.
            let downs = u64::from(self.float(lower, back) == down)
                + u64::from(higher.score <= lower.score && self.float(higher, back) == down);
            w = w.push(g, when(current, Wide::from_u64(downs)));
            let upfloat = higher.score > lower.score && self.float(lower, back) == up;
            w = w.push(g, flag(current && !upfloat));
        }
        for back in 1..=self.played.min(2) {
            // C.18–C.21: their scores.
            let mut downs = Wide::ZERO;
            if self.float(lower, back) == down {
                downs = downs.add(score_bit(lower));
            }
            if self.float(higher, back) == down {
                downs = downs.add(score_bit(higher));
            }
            w = w.push(s, when(current, downs));
            let upfloat = self.float(lower, back) == up && higher.score > lower.score;
            w = w.push(s, when(current && !upfloat, score_bit(higher)));
        }
        // Room for the exchanges and the order of the pairs, filled in per bracket.
        w.push(3 * g + 1, Wide::ZERO)
    }

    /// C.10–C.13, one field each, counted for pairs within the bracket being paired.
    fn colour_fields<const N: usize>(
        &self,
        w: Wide<N>,
        p: &Player,
        o: &Player,
        current: bool,
    ) -> Wide<N> {
        let g = self.size_bits;
        let differ = p.preference != o.preference;
        let imbalances = !p.absolute_imbalance() || !o.absolute_imbalance() || differ;
        let absolutes = !p.absolute()
            || !o.absolute()
            || differ
            || if p.imbalance == o.imbalance {
                p.repeated.is_none() || p.repeated != o.repeated
            } else {
                let weaker = if p.imbalance > o.imbalance { o } else { p };
                weaker.repeated != p.preference.map(Colour::other)
            };
        let preferences = compatible_preferences(p.preference, o.preference);
        let strong = (!p.strong && !p.absolute())
            || (!o.strong && !o.absolute())
            || (p.absolute() && o.absolute())
            || differ;
        [imbalances, absolutes, preferences, strong]
            .into_iter()
            .fold(w, |w, c| w.push(g, flag(current && c)))
    }
}

/// The symmetric weight matrix the solver reads, over positions in pairing order.
struct Graph<const N: usize> {
    weights: Vec<Vec<Wide<N>>>,
    top: Wide<N>,
    /// Per position, the mate it was fixed with: fixed pairs are left out of the solves (their
    /// edge outweighs everything, so every solve would keep them).
    fixed: Vec<Option<usize>>,
}

impl<const N: usize> Graph<N> {
    fn set(&mut self, a: usize, b: usize, w: Wide<N>) {
        self.weights[a][b] = w;
        self.weights[b][a] = w;
    }

    fn solve(&self) -> Vec<usize> {
        let active: Vec<usize> = (0..self.weights.len())
            .filter(|&v| self.fixed[v].is_none())
            .collect();
        let sub: Vec<Vec<Wide<N>>> = active
            .iter()
            .map(|&a| active.iter().map(|&b| self.weights[a][b]).collect())
            .collect();
        let sub_mates = maximum_matching(&sub);
        let mut mates: Vec<usize> = (0..self.weights.len())
            .map(|v| self.fixed[v].unwrap_or(v))
            .collect();
        for (i, &v) in active.iter().enumerate() {
            mates[v] = active[sub_mates[i]];
        }
        mates
    }

    /// Fixes a and b as a pair: their edge outweighs everything, their others are gone.
    fn finalize(&mut self, a: usize, b: usize) {
        if a != b {
            self.fixed[a] = Some(b);
            self.fixed[b] = Some(a);
        }
        for u in 0..self.weights.len() {
            if u != a {
                let w = if u == b { self.top } else { Wide::ZERO };
                self.set(a, u, w);
            }
            if u != b {
                let w = if u == a { self.top } else { Wide::ZERO };
                self.set(b, u, w);
            }
        }
    }
}

/// The pairs of the round as (team, opponent or None for the bye), or None when no pairing
/// keeps the absolute criteria; Some(Err) when the weights would not fit.
pub fn pair(all: &[Player], rounds: u32) -> Option<Vec<(Team, Option<Team>)>> {
    let round = Round::new(all, rounds);
    if round.sorted.is_empty() {
        return Some(Vec::new());
    }
    // The narrowest numbers that hold the weights, with room for the solver's doubled duals
    // and the per-bracket additions (a few bits).
    match round.weight_bits() + 8 {
        bits if bits <= Wide::<4>::BITS => pair_in::<4>(&round, bits - 8),
        bits if bits <= Wide::<6>::BITS => pair_in::<6>(&round, bits - 8),
        bits if bits <= Wide::<8>::BITS => pair_in::<8>(&round, bits - 8),
        bits if bits <= Wide::<12>::BITS => pair_in::<12>(&round, bits - 8),
        bits if bits <= Wide::<20>::BITS => pair_in::<20>(&round, bits - 8),
        // Beyond the 64 teams and 20 rounds an event has: a thousand score groups.
        _ => None,
    }
}

fn pair_in<const N: usize>(round: &Round, bits: u32) -> Option<Vec<(Team, Option<Team>)>> {
    let n = round.sorted.len();
    let sorted = &round.sorted;
    let no_ranks = HashMap::new();
    let even_bye = Bye {
        score: 0,
        single_downfloater: false,
        ranks: &no_ranks,
    };
    let mut graph: Graph<N> = Graph {
        weights: vec![vec![Wide::ZERO; n]; n],
        top: Wide::ones(bits),
        fixed: vec![None; n],
    };
    let top_score = sorted[0].score;
    for p in 0..n {
        for o in 0..p {
            let w = if n % 2 == 1 {
                // Who can be left out: completion, then the lowest scores for the bye.
                let (a, b) = (sorted[p], sorted[o]);
                if round.compatible(a, b) {
                    let outer = 1 + u64::from(!a.bye_eligible) + u64::from(!b.bye_eligible);
                    let shifts = u64::from(round.shift(a.score) + round.shift(b.score));
                    Wide::from_u64(outer)
                        .push(round.score_bits, Wide::from_u64(shifts))
                        .push(round.size_bits, flag(a.score >= top_score))
                } else {
                    Wide::ZERO
                }
            } else {
                round.weight(sorted[o], sorted[p], false, false, even_bye)
            };
            graph.set(p, o, w);
        }
    }
    let first = graph.solve();
    if !complete(&first, sorted) {
        return None;
    }
    let mut bye_score = 0;
    let mut single = false;
    let mut ranks = HashMap::new();
    if n % 2 == 1 {
        let left = (0..n).find(|&v| first[v] == v).unwrap_or(n - 1);
        bye_score = sorted[left].score;
        single = bye_score >= top_score
            && (0..n)
                .take_while(|&v| sorted[v].score >= top_score)
                .all(|v| sorted[first[v]].score >= top_score);
        let mut counts: Vec<u32> = sorted
            .iter()
            .filter(|p| p.score == bye_score)
            .map(|p| p.played)
            .collect();
        counts.sort_by(|a, b| b.cmp(a));
        for (rank, c) in counts.into_iter().enumerate() {
            ranks.insert(c, rank as u64);
        }
        let bye = Bye {
            score: bye_score,
            single_downfloater: single,
            ranks: &ranks,
        };
        for p in 0..n {
            for o in 0..p {
                let w = round.weight(sorted[o], sorted[p], false, false, bye);
                graph.set(p, o, w);
            }
        }
    }
    let bye = |single| Bye {
        score: bye_score,
        single_downfloater: single,
        ranks: &ranks,
    };
    let mates = brackets(round, &mut graph, bye_score, single, &bye);
    if mates.iter().filter(|m| m.is_none()).count() > n % 2 {
        return None;
    }
    Some(
        (0..n)
            .filter(|&v| mates[v].is_none_or(|m| v < m))
            .map(|v| (sorted[v].team, mates[v].map(|m| sorted[m].team)))
            .collect(),
    )
}

/// All but at most one vertex matched, and that one may have the bye.
fn complete(mates: &[usize], sorted: &[&Player]) -> bool {
    let free: Vec<usize> = (0..mates.len()).filter(|&v| mates[v] == v).collect();
    free.len() <= 1 && free.iter().all(|&v| sorted[v].bye_eligible)
}

/// Pairs the brackets from the top down; per position in pairing order, its mate.
fn brackets<'m, const N: usize>(
    round: &Round,
    graph: &mut Graph<N>,
    bye_score: u32,
    mut single: bool,
    bye: &dyn Fn(bool) -> Bye<'m>,
) -> Vec<Option<usize>> {
    let sorted = &round.sorted;
    let n = sorted.len();
    let score = |v: usize| sorted[v].score;
    let mut mates: Vec<Option<usize>> = vec![None; n];
    let mut matched = vec![false; n];
    // The current bracket's positions: moved-down teams first, then its own score group.
    let mut bracket: Vec<usize> = (0..n).take_while(|&v| score(v) >= score(0)).collect();
    let mut next_group = bracket.len();
    let mut moved_down = 0;
    let mut group_start = 0;
    while bracket.len() > 1 || next_group < n {
        let residents_end = bracket.len();
        let next_start = group_start + (residents_end - moved_down);
        let next_score = (next_group < n).then(|| score(next_group));
        while next_group < n && Some(score(next_group)) == next_score {
            bracket.push(next_group);
            next_group += 1;
        }
        let mut state = Bracket {
            round,
            graph: &mut *graph,
            matched: &mut matched,
            positions: &bracket,
            moved_down,
            residents_end,
            group_start,
            next_start,
            base: Vec::new(),
        };
        state.weigh(bye(single));
        let stable = state.pair_moved_down();
        let stable = state.pair_residents(stable);
        // What is left goes down to the next bracket.
        single = n % 2 == 1 && next_score.is_some_and(|s| bye_score >= s);
        let mut rest = Vec::new();
        moved_down = 0;
        for (i, &v) in bracket.iter().enumerate() {
            if i < residents_end && matched[v] {
                mates[v] = Some(stable[v]);
                mates[stable[v]] = Some(v);
            } else {
                rest.push(v);
                if i < residents_end {
                    moved_down += 1;
                }
                if single && next_score.is_some_and(|s| score(stable[v]) < s) {
                    single = false;
                }
            }
        }
        if next_score.is_none() && rest.len() == bracket.len() {
            // The last bracket paired nothing and no group is left to join it: cannot happen
            // after the complete first solve, but a loop must end.
            break;
        }
        bracket = rest;
        group_start = next_start;
    }
    mates
}

/// One bracket being paired.
struct Bracket<'r, 'a, const N: usize> {
    round: &'r Round<'a>,
    graph: &'r mut Graph<N>,
    matched: &'r mut Vec<bool>,
    /// The bracket's positions (moved down, residents), then the next score group's.
    positions: &'r [usize],
    moved_down: usize,
    residents_end: usize,
    /// The first position of the bracket's own score group, and of the next group.
    group_start: usize,
    next_start: usize,
    /// base[j][i] (i < j, indices into `positions`): the weight of that pair for this bracket.
    base: Vec<Vec<Wide<N>>>,
}

impl<const N: usize> Bracket<'_, '_, N> {
    fn resident(&self, mate: usize) -> bool {
        (self.group_start..self.next_start).contains(&mate)
    }

    fn weigh(&mut self, bye: Bye) {
        let sorted = &self.round.sorted;
        let p = self.positions;
        self.base = vec![Vec::new(); p.len()];
        for larger in self.moved_down..p.len() {
            for smaller in 0..larger {
                let current = larger < self.residents_end;
                let w = self.round.weight(
                    sorted[p[smaller]],
                    sorted[p[larger]],
                    current,
                    !current,
                    bye,
                );
                self.base[larger].push(w);
                self.graph.set(p[smaller], p[larger], w);
            }
        }
    }

    /// Which moved-down teams are paired in this bracket, the highest scores first, and whom
    /// they meet (the highest-ranked resident that allows the best pairing).
    fn pair_moved_down(&mut self) -> Vec<usize> {
        let p = self.positions;
        let sorted = &self.round.sorted;
        let mut stable = self.graph.solve();
        let mut group_score = 0;
        let (mut remaining, mut remaining_matched) = (0usize, 0usize);
        for i in 0..self.moved_down {
            let v = p[i];
            if i == 0 || sorted[v].score < group_score {
                group_score = sorted[v].score;
                remaining = 0;
                remaining_matched = 0;
                for &u in p[i..self.residents_end]
                    .iter()
                    .take_while(|&&u| sorted[u].score >= group_score)
                {
                    remaining += 1;
                    if self.resident(stable[u]) {
                        remaining_matched += 1;
                    }
                }
            }
            if remaining_matched == 0 {
                continue;
            }
            if remaining <= remaining_matched {
                self.matched[v] = true;
                continue;
            }
            remaining -= 1;
            if !self.resident(stable[v]) {
                for (o, &u) in p
                    .iter()
                    .enumerate()
                    .take(self.residents_end)
                    .skip(self.moved_down)
                {
                    let w = self.base[o][i];
                    if !w.is_zero() {
                        self.graph.set(v, u, w.add(Wide::from_u64(1)));
                    }
                }
                stable = self.graph.solve();
            }
            if self.resident(stable[v]) {
                self.matched[v] = true;
                remaining_matched -= 1;
                let residents = (self.residents_end - self.moved_down) as u64;
                for (o, &u) in p
                    .iter()
                    .enumerate()
                    .take(self.residents_end)
                    .skip(self.moved_down)
                {
                    let w = self.base[o][i];
                    if !w.is_zero() {
                        self.graph.set(v, u, w.add(Wide::from_u64(residents + 1)));
                    }
                }
            }
        }
        for i in 0..self.moved_down {
            let v = p[i];
            if !self.matched[v] {
                continue;
            }
            let mut addend = p.len() as u64;
            for o in (self.moved_down..self.residents_end).rev() {
                if self.matched[p[o]] {
                    continue;
                }
                let w = self.base[o][i];
                if !w.is_zero() {
                    self.graph.set(v, p[o], w.add(Wide::from_u64(addend)));
                    addend += 1;
                }
            }
            stable = self.graph.solve();
            let mate = stable[v];
            self.matched[mate] = true;
            self.graph.finalize(v, mate);
        }
        stable
    }

    /// The base weight with the exchange fields: fewest exchanges, then the smallest difference
    /// of the exchanged bracket sequence numbers.
    fn exchange_weight(
        &self,
        smaller: usize,
        larger: usize,
        index: usize,
        pairs: usize,
    ) -> Wide<N> {
        let w = self.base[larger][smaller];
        if w.is_zero() {
            return w;
        }
        let g = self.round.size_bits;
        let kept = Wide::from_u64(u64::from(index < pairs)).shl(2 * g + 1);
        w.add(kept).sub(Wide::from_u64(2 * index as u64))
    }

    /// The residents left: S1 (the first `pairs`) against S2, with the fewest and smallest
    /// exchanges, then S1's opponents top down.
    fn pair_residents(&mut self, stable: Vec<usize>) -> Vec<usize> {
        let p = self.positions;
        let next_start = self.next_start;
        let mut remainder = Vec::new();
        let mut pairs = 0;
        for (i, &v) in p
            .iter()
            .enumerate()
            .take(self.residents_end)
            .skip(self.moved_down)
        {
            if stable[v] < self.group_start {
                continue;
            }
            remainder.push(i);
            if stable[v] < v {
                pairs += 1;
            }
        }
        for (b, &o) in remainder.iter().enumerate() {
            for (a, &i) in remainder[..b].iter().enumerate() {
                let w = self.exchange_weight(i, o, a, pairs);
                self.graph.set(p[i], p[o], w);
            }
        }
        let mut stable = self.graph.solve();
        let in_s1_role = |stable: &[usize], v: usize| stable[v] > v && stable[v] < next_start;
        let exchanges = remainder[..pairs]
            .iter()
            .filter(|&&i| !in_s1_role(&stable, p[i]))
            .count();
        // S1's lowest first: which of them can go to S2.
        let mut left = exchanges;
        let mut at = pairs;
        while at > 0 && left > 0 {
            at -= 1;
            let i = remainder[at];
            let v = p[i];
            if in_s1_role(&stable, v) {
                for &o in &remainder[at + 1..] {
                    let w = self.exchange_weight(i, o, at, pairs);
                    if !w.is_zero() {
                        self.graph.set(v, p[o], w.sub(Wide::from_u64(1)));
                    }
                }
                stable = self.graph.solve();
            }
            let exchange = !in_s1_role(&stable, v);
            if exchange {
                left -= 1;
            }
            for &o in &remainder[at + 1..] {
                if exchange {
                    self.base[o][i] = Wide::ZERO;
                }
                let w = self.exchange_weight(i, o, at, pairs);
                self.graph.set(v, p[o], w);
            }
        }
        // S2's highest first: which of them come up to S1.
        let mut left = exchanges;
        for at in pairs..remainder.len() {
            if left <= 1 {
                break;
            }
            let i = remainder[at];
            let v = p[i];
            let already = in_s1_role(&stable, v);
            if !already {
                for &o in &remainder[at + 1..] {
                    let w = self.exchange_weight(i, o, at, pairs);
                    if !w.is_zero() {
                        self.graph.set(v, p[o], w.add(Wide::from_u64(1)));
                    }
                }
                stable = self.graph.solve();
            }
            if in_s1_role(&stable, v) {
                left -= 1;
                for &o in &remainder[..at] {
                    self.base[i][o] = Wide::ZERO;
                    self.graph.set(v, p[o], Wide::ZERO);
                }
                for (o, &u) in p.iter().enumerate().skip(self.residents_end) {
                    self.base[o][i] = Wide::ZERO;
                    self.graph.set(v, u, Wide::ZERO);
                }
            }
            if !already {
                for &o in &remainder[at + 1..] {
                    let w = self.exchange_weight(i, o, at, pairs);
                    self.graph.set(v, p[o], w);
                }
            }
        }
        // Only S1 (as exchanged) against S2 stays.
        for (a, &i) in remainder.iter().enumerate() {
            let v = p[i];
            for &o in &remainder[a + 1..] {
                let u = p[o];
                if !in_s1_role(&stable, v) || in_s1_role(&stable, u) {
                    self.base[o][i] = Wide::ZERO;
                }
                self.graph.set(v, u, self.base[o][i]);
            }
        }
        // S1's opponents, top down: the highest in S2 that keeps the best pairing.
        for &i in &remainder {
            let v = p[i];
            if !in_s1_role(&stable, v) {
                continue;
            }
            let mut addend = 0u64;
            for &o in remainder.iter().rev() {
                let u = p[o];
                if o <= i || self.matched[u] {
                    continue;
                }
                let w = self.base[o][i];
                if !w.is_zero() {
                    self.graph.set(v, u, w.add(Wide::from_u64(addend)));
                }
                addend += 1;
            }
            stable = self.graph.solve();
            let mate = stable[v];
            self.matched[v] = true;
            self.matched[mate] = true;
            self.graph.finalize(v, mate);
        }
        stable
    }
}

/// Colour of a pair's first team (the lower pairing number), as the rules allocate.
pub fn colours(
    all: &[Player],
    pairs: &[(Team, Option<Team>)],
    initial: Colour,
) -> Vec<(Team, Option<Team>)> {
    pairs
        .iter()
        .map(|&(a, b)| match b {
            None => (a, None),
            Some(b) => {
                let (first, second) = (a.min(b), a.max(b));
                match super::colours::colour_of(&all[first], &all[second], initial) {
                    Colour::White => (first, Some(second)),
                    Colour::Black => (second, Some(first)),
                }
            }
        })
        .collect()
}
