//! `gmo perft`: count ply sequences (rules §6) from the default start or from every record of
//! a `perft*.jsonl` file, and report the speed.

use clap::Args;
use gmo_engine::{PerftVector, Position, perft};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Debug, Args)]
pub struct PerftArgs {
    /// Depth from the default start (ignored with --file).
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Check every record of a perft*.jsonl file instead.
    #[arg(long)]
    file: Option<std::path::PathBuf>,
    /// Also print the count for each first ply (default start only).
    #[arg(long)]
    divide: bool,
}

pub fn run(args: PerftArgs) -> ExitCode {
    match &args.file {
        Some(file) => run_file(file),
        None => run_start(&args),
    }
}

fn report(nodes: u64, seconds: f64) -> String {
    let rate = if seconds > 0.0 {
        nodes as f64 / seconds
    } else {
        0.0
    };
    format!("nodes {nodes}  seconds {seconds:.3}  nodes/s {rate:.0}")
}

fn run_start(args: &PerftArgs) -> ExitCode {
    let position = Position::default_start();
    if args.divide {
        for (ply, nodes) in gmo_engine::divide(&position, args.depth) {
            println!("{ply}: {nodes}");
        }
    }
    let start = Instant::now();
    let nodes = perft(&position, args.depth);
    let seconds = start.elapsed().as_secs_f64();
    println!("default start, depth {}", args.depth);
    println!("{}", report(nodes, seconds));
    ExitCode::SUCCESS
}

fn run_file(file: &std::path::Path) -> ExitCode {
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("cannot read {}: {e}", file.display());
            return ExitCode::FAILURE;
        }
    };
    let (mut total_nodes, mut total_seconds, mut failures) = (0u64, 0f64, 0usize);
    for (line_no, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let where_ = format!("{}:{}", file.display(), line_no + 1);
        let vector = match PerftVector::parse(line) {
            Ok(vector) => vector,
            Err(e) => {
                eprintln!("{where_}: {e}");
                failures += 1;
                continue;
            }
        };
        let start = Instant::now();
        let nodes = perft(&vector.position, vector.depth);
        let seconds = start.elapsed().as_secs_f64();
        total_nodes += nodes;
        total_seconds += seconds;
        let verdict = if nodes == vector.nodes {
            "ok"
        } else {
            failures += 1;
            "MISMATCH"
        };
        println!(
            "{verdict:8} {where_}  {} depth {}: expected {}, {}",
            vector.name,
            vector.depth,
            vector.nodes,
            report(nodes, seconds)
        );
    }
    println!("total: {}", report(total_nodes, total_seconds));
    if failures == 0 {
        ExitCode::SUCCESS
    } else {
        eprintln!("{failures} record(s) failed");
        ExitCode::FAILURE
    }
}
