//! What the arena prints: a line per game and a table at the end, or with `--json` one object
//! (docs/agents.md, "Testing locally").

use super::elo::Elo;
use super::{ArenaArgs, Outcome, Tally};
use gmo_bots::Lineup;
use gmo_engine::Color;
use serde::Serialize;
use serde_json::json;

/// An agent's fault: it lost game `game` (1-based).
#[derive(Debug, Clone, Serialize)]
pub struct Failure {
    pub game: u32,
    /// The side of the match (`white`: the `--white` side, which plays Black in odd games).
    pub side: &'static str,
    /// The colour it played in that game.
    pub color: Color,
    pub message: String,
}

pub fn print_game(args: &ArenaArgs, i: u32, swap: bool, outcome: &Outcome) {
    let [first, second] = args.sides();
    let (white, black) = if swap {
        (second, first)
    } else {
        (first, second)
    };
    let result = match outcome.winner {
        Some(Color::White) => format!("{white} (white) won"),
        Some(Color::Black) => format!("{black} (black) won"),
        None => "draw".to_string(),
    };
    println!(
        "game {:>3}: {white} (white) vs {black} (black): {result}, {} in {} plies",
        i + 1,
        outcome.why,
        outcome.plies
    );
}

pub fn print_summary(
    args: &ArenaArgs,
    lineups: &[Lineup; 2],
    tallies: &[Tally; 2],
    plies: u64,
    capped: u32,
) {
    let games = args.games.max(1);
    println!(
        "\n{} games, {}x{}, seed {}, colours alternating; results per side:",
        args.games, args.size.0, args.size.1, args.seed
    );
    println!(
        "{:<10} {:<22} {:>5} {:>6} {:>7} {:>14}  lineup",
        "seat", "side", "wins", "draws", "losses", "nodes/s"
    );
    let [first, second] = args.sides();
    for (flag, side, t, lineup) in [
        ("--white", first, tallies[0], &lineups[0]),
        ("--black", second, tallies[1], &lineups[1]),
    ] {
        let seconds = t.thinking.as_secs_f64();
        let rate = if t.nodes > 0 && seconds > 0.0 {
            format!("{:.0}", t.nodes as f64 / seconds)
        } else {
            "-".to_string()
        };
        println!(
            "{flag:<10} {:<22} {:>5} {:>6} {:>7} {rate:>14}  {} ({})",
            side.to_string(),
            t.wins,
            t.draws,
            t.losses,
            lineup.name,
            lineup.code()
        );
    }
    let elo = Elo::of(tallies[0].wins, tallies[0].draws, tallies[0].losses);
    let shown = |value: Option<f64>| value.map_or("unbounded".to_string(), |v| format!("{v:+.0}"));
    println!(
        "Elo of --white over --black: {} (95 %: {} to {})",
        shown(elo.diff),
        shown(elo.low),
        shown(elo.high)
    );
    println!(
        "average length: {:.1} plies; {capped} game(s) stopped at {} plies and counted as draws",
        plies as f64 / f64::from(games),
        args.max_plies
    );
}

/// Each agent fault, one line each, after the table.
pub fn print_failures(failures: &[Failure]) {
    for failure in failures {
        println!(
            "agent error: game {} --{} ({}): {}",
            failure.game, failure.side, failure.color, failure.message
        );
    }
}

/// The `--json` summary: `{"games", "white", "black", "elo", "errors"}`.
pub fn json(args: &ArenaArgs, tallies: &[Tally; 2], failures: &[Failure]) -> serde_json::Value {
    let [first, second] = args.sides();
    let side = |name: String, t: &Tally| json!({"name": name, "wins": t.wins, "draws": t.draws, "losses": t.losses});
    let elo = Elo::of(tallies[0].wins, tallies[0].draws, tallies[0].losses);
    json!({
        "games": args.games,
        "white": side(first.to_string(), &tallies[0]),
        "black": side(second.to_string(), &tallies[1]),
        "elo": elo,
        "errors": failures,
    })
}
