//! The lab engine's speed (docs/performance.md, "Analysis"): the best lines from the default
//! start at the service's budget (20,000 nodes a line), one line and five, on one thread as a
//! lab search runs. Before the timing it prints the lines found.

use criterion::{Criterion, criterion_group, criterion_main};
use gmo_bots::analysis::NODES;
use gmo_bots::lines::lines;
use gmo_engine::Position;
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let start = Position::default_start();
    for line in lines(&start, 5, NODES).lines {
        let plies: Vec<String> = line
            .moves
            .iter()
            .map(|m| format!("{}{}", m.from, m.to))
            .collect();
        println!("{:?} depth {}: {}", line.eval, line.depth, plies.join(" "));
    }
    let mut group = c.benchmark_group("lines");
    group.sample_size(10);
    for count in [1, 5] {
        group.bench_function(format!("default start, {count} of 20000 nodes"), |b| {
            b.iter(|| lines(black_box(&start), count, NODES))
        });
    }
    group.finish();
}

criterion_group!(lines_benches, benches);
criterion_main!(lines_benches);
