//! Engine speed: the move list at the default start, perft 4 from it, a busy mid-game position
//! reached by a fixed sequence of plies, and what every game view adds on each move: the kings in
//! danger, and the whole view.

use criterion::{Criterion, criterion_group, criterion_main};
use gmo_engine::{Color, Game, Position, Settings, Status, Viewer, perft};
use gmo_genome::standard;
use gmo_types::Timestamp;
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
    c.bench_function("kings in danger, default start", |b| {
        b.iter(|| black_box(&start).kings_in_danger())
    });
    c.bench_function("kings in danger, mid-game", |b| {
        b.iter(|| black_box(&busy).kings_in_danger())
    });
    let attacked = king_attacked();
    c.bench_function("kings in danger, a rook on the black king", |b| {
        b.iter(|| black_box(&attacked).kings_in_danger())
    });
    let game = started_game();
    c.bench_function("game view, default start", |b| {
        b.iter(|| black_box(&game).view(Viewer::Player(Color::White), Timestamp::EPOCH))
    });
}

/// The default start with the d-pawns lifted and a white rook on d4, which reaches the black king
/// on d8: the path that makes the move on a copy of the board.
fn king_attacked() -> Position {
    let mut position = Position::default_start();
    let square = |name: &str| name.parse().expect("square");
    position.remove(square("d2"));
    position.remove(square("d7"));
    let rook = standard::by_name("rook").expect("standard rook");
    let id = position.intern(&rook).expect("room");
    position
        .put(square("d4"), gmo_engine::Piece::new(id, Color::White))
        .expect("on the board");
    assert_eq!(position.kings_in_danger().black.len(), 1);
    position
}

/// The default game, both sides set up and ready (kings on file d).
fn started_game() -> Game {
    let mut game = Game::new(Settings::default(), 7).expect("default settings");
    let back: Vec<gmo_genome::Genome> = standard::DEFAULT_PRESET
        .iter()
        .map(|name| standard::by_name(name).expect("standard genome"))
        .collect();
    for color in Color::BOTH {
        game.load_preset(color, &back).expect("preset");
        let rank = if color == Color::White { "d1" } else { "d8" };
        let king = rank.parse().expect("square");
        game.toggle_king(color, king).expect("own piece");
        game.ready(color, Timestamp::EPOCH).expect("ready");
    }
    game
}

criterion_group!(engine, benches);
criterion_main!(engine);
