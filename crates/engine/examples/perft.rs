//! perft from the default start, timed: `cargo run --release -p gmo-engine --example perft -- 6`.
//! Built from the engine alone (not the whole `gmo` command), so that move generation can be
//! measured against another engine's perft without building the service.

use gmo_engine::{Position, perft};
use std::time::Instant;

fn main() {
    let depth = std::env::args()
        .nth(1)
        .and_then(|arg| arg.parse().ok())
        .unwrap_or(5);
    let position = Position::default_start();
    let start = Instant::now();
    let nodes = perft(&position, depth);
    let seconds = start.elapsed().as_secs_f64();
    let rate = nodes as f64 / seconds;
    println!("nodes {nodes}  seconds {seconds:.3}  nodes/s {rate:.0}");
}
