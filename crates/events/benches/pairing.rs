//! Pairing speed for a large team event: the Swiss round 5 of 64 teams by the Dutch system (a
//! sequence of weighted matchings over 64 vertices and about two thousand edges, the costliest
//! call the service makes per round), and every round-robin round of 64 teams.

use criterion::{Criterion, criterion_group, criterion_main};
use gmo_events::{Board, Outcome, berger, swiss};
use std::hint::black_box;

const TEAMS: usize = 64;

/// A nine-round event: round 5 is not its last.
const SETTINGS: swiss::Settings = swiss::Settings {
    rounds: 9,
    top_seed_white: true,
};

/// Rounds 1–4 played with a fixed pattern of results (a mix of wins both ways and draws, so that
/// the score groups are uneven as in a real event).
fn four_rounds() -> Vec<Board> {
    let mut boards = Vec::new();
    for round in 1..=4 {
        let pairings = swiss::pair(TEAMS, &boards, &SETTINGS).expect("64 teams pair for 4 rounds");
        for p in pairings {
            let pattern = (p.white * 7 + p.black.unwrap_or(0) * 3 + round) % 3;
            let outcome = [Outcome::White, Outcome::Black, Outcome::Draw][pattern];
            boards.push(Board {
                white: p.white,
                black: p.black,
                outcome: Some(outcome),
            });
        }
    }
    boards
}

fn benches(c: &mut Criterion) {
    let boards = four_rounds();
    c.bench_function("swiss round 5, 64 teams", |b| {
        b.iter(|| swiss::pair(black_box(TEAMS), black_box(&boards), &SETTINGS))
    });
    c.bench_function("berger all rounds, 64 teams", |b| {
        b.iter(|| berger::rounds(black_box(TEAMS), false))
    });
}

criterion_group!(pairing, benches);
criterion_main!(pairing);
