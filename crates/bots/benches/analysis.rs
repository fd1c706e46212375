//! Analysis speed (docs/performance.md, "Analysis"): an 8×8 game between two seeded bots (the
//! search wins it in 35 plies; at most 60), every position searched at the service's budget, as
//! one process analyses it. Before the
//! timing it prints what the budget buys: how many plies' judgements agree with a budget ten
//! times larger.

use criterion::{Criterion, criterion_group, criterion_main};
use gmo_bots::DEFAULT;
use gmo_bots::analysis::{self, NODES, Replayed, Searched};
use gmo_bots::{Bot, Budget, GreedyBot, SearchBot};
use gmo_engine::{Color, Game, Settings, Timestamp};
use std::hint::black_box;

const PLIES: usize = 60;

/// The search (300 nodes a ply) against greedy, resigned by Black after 60 plies if not over.
fn game() -> Game {
    let settings = Settings::new(8, 8, Settings::MAX_INITIAL).expect("settings");
    let mut game = Game::new(settings, 3).expect("game");
    for color in Color::BOTH {
        DEFAULT
            .seat(&mut game, color, Timestamp::EPOCH)
            .expect("seat");
    }
    let mut white = SearchBot::new();
    let mut black = GreedyBot::new(4);
    let mut now = Timestamp::EPOCH;
    for _ in 0..PLIES {
        let Some(color) = game.to_move() else { break };
        now = game.frozen_until(now).unwrap_or(now);
        let bot: &mut dyn Bot = if color == Color::White {
            &mut white
        } else {
            &mut black
        };
        let ply = bot
            .choose_for_game(&game, Budget::Nodes(300))
            .expect("a ply");
        ply.play(&mut game, color, now).expect("legal");
    }
    if !game.is_over() {
        game.resign(Color::Black, now).expect("resigns");
    }
    game
}

fn analyse(replayed: &Replayed, nodes: u64) -> Vec<Searched> {
    replayed
        .positions
        .iter()
        .map(|p| analysis::search(p, nodes))
        .collect()
}

fn benches(c: &mut Criterion) {
    let record = game().record();
    let replayed = analysis::replay(&record).expect("replays");
    let base = analysis::judge(&replayed.plies, &analyse(&replayed, NODES)).0;
    let tenfold = analysis::judge(&replayed.plies, &analyse(&replayed, 10 * NODES)).0;
    let agree = base
        .iter()
        .zip(&tenfold)
        .filter(|(a, b)| a.judgement == b.judgement)
        .count();
    let marked =
        |plies: &[analysis::PlyAnalysis]| plies.iter().filter(|p| p.judgement.is_some()).count();
    println!(
        "{} plies: judgements agree with {}×10 nodes on {agree}; marked {} at {NODES}, {} at ×10",
        base.len(),
        NODES,
        marked(&base),
        marked(&tenfold)
    );
    let mut group = c.benchmark_group("analysis");
    group.sample_size(10);
    group.bench_function(
        "search against greedy on 8x8, 20000 nodes a position",
        |b| {
            b.iter(|| {
                let replayed = analysis::replay(black_box(&record)).expect("replays");
                let searched = analyse(&replayed, NODES);
                analysis::judge(&replayed.plies, &searched)
            })
        },
    );
    group.finish();
}

criterion_group!(analysis_benches, benches);
criterion_main!(analysis_benches);
