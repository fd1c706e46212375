//! Engine speed: the move list at the default start, perft 4 from it, and a busy mid-game
//! position reached by a fixed sequence of plies.

use criterion::{Criterion, criterion_group, criterion_main};
use gmo_engine::{Position, Status, perft};
use gmo_genome::standard;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

/// Twelve seeded random plies from the default start: pieces developed, a few captures.
fn midgame() -> Position {
    let mut position = Position::default_start();
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let queen = gmo_genome::Genome::parse(standard::QUEEN).expect("standard queen");
    for _ in 0..12 {
        if position.status() != Status::InProgress {
            break;
        }
        if position.due_promotion().is_some() {
            position.promote(&queen).expect("a promotion is due");
            continue;
        }
        let moves = position.legal_moves();
        let pick = moves[rng.random_range(0..moves.len())];
        position
            .play(pick.from, pick.to, &mut rng)
            .expect("a listed move");
    }
    position
}

fn benches(c: &mut Criterion) {
    let start = Position::default_start();
    c.bench_function("move list, default start", |b| {
        b.iter(|| black_box(&start).legal_moves())
    });
    c.bench_function("perft 4, default start", |b| {
        b.iter(|| perft(black_box(&start), 4))
    });
    let busy = midgame();
    c.bench_function("move list, mid-game", |b| {
        b.iter(|| black_box(&busy).legal_moves())
    });
    c.bench_function("perft 3, mid-game", |b| {
        b.iter(|| perft(black_box(&busy), 3))
    });
}

criterion_group!(engine, benches);
criterion_main!(engine);
