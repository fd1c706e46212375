//! `gmo arena`: bots and agents (programs speaking the local protocol, `exec:COMMAND`;
//! docs/agents.md) play each other from a preset, and the results are counted per side.
//!
//! An agent that answers with anything but a legal action in time, or exits, loses that game
//! (reason `agent_error`); its program is killed and the next game starts a fresh one.
//!
//! Each bot brings its own lineup (`--white-preset`, `--black-preset`, else `--preset`): a preset
//! name or code, a comma list of genome references, or a file of DNA lines (one per file of the
//! board, file a first; a trailing `*` marks the king). The lineup follows the bot when colours
//! swap.
//!
//! Game `i` (0-based) seats the `--white` bot as White when `i` is even and as Black when odd.
//! Every game and every bot gets a seed derived from `--seed`, so with node or depth budgets the
//! same command plays the same games; with time budgets the search depth, and so the games,
//! depend on the machine's speed and load.

mod agent_seat;
mod elo;
mod play;
mod report;
mod show;
mod side;

use agent_seat::AgentSeat;
use gmo_bots::{Lineup, preset_by_name};
use gmo_engine::Color;
use report::Failure;
use side::Side;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Debug, clap::Args)]
pub struct ArenaArgs {
    /// The first side (White in even games): random, greedy, search, search:200ms, search:5000n,
    /// or exec:COMMAND, an agent program (split as a shell would, run without a shell).
    #[arg(long, default_value = "search:100ms", value_parser = parse_side)]
    white: Side,
    /// The second side (Black in even games), as --white.
    #[arg(long, default_value = "random", value_parser = parse_side)]
    black: Side,
    /// How long an agent may take for each answer (e.g. 2s, 500ms, 1.5s; 1 ms to 1 h).
    #[arg(long, default_value = "2s", value_parser = parse_within)]
    answer_within: Duration,
    /// Print one JSON object at the end instead of the table: games, each side's results, the
    /// first side's Elo difference with a 95 % interval, and the agents' errors.
    #[arg(long)]
    json: bool,
    /// How many games.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// The preset both sides use: default (8 wide) or five (5 wide; the default with --size 5x5).
    #[arg(long)]
    preset: Option<String>,
    /// The --white side's lineup: a preset name or code, a comma list of genomes (standard names,
    /// standard codes or DNA; a trailing * marks the king), or a file of DNA lines.
    #[arg(long, value_name = "REF")]
    white_preset: Option<String>,
    /// The --black side's lineup, as --white-preset.
    #[arg(long, value_name = "REF")]
    black_preset: Option<String>,
    /// The seed of every game's and bot's randomness.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Board size as WIDTHxHEIGHT (4 to 8 each), e.g. 5x5.
    #[arg(long, default_value = "8x8", value_parser = parse_size)]
    size: (u8, u8),
    /// Print the board after every ply, and copy agents' logs to standard error.
    #[arg(long)]
    show: bool,
    /// Play on clocks of this many milliseconds per side (thinking time counts); none by default.
    #[arg(long)]
    clock: Option<u64>,
    /// A game still going after this many plies is stopped and counted as a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
}

impl ArenaArgs {
    /// The `--white` and `--black` sides.
    fn sides(&self) -> [&Side; 2] {
        [&self.white, &self.black]
    }
}

fn parse_side(text: &str) -> Result<Side, String> {
    text.parse()
}

/// A duration as `2s`, `1.5s` or `500ms`, from 1 ms to 1 h.
pub(crate) fn parse_within(text: &str) -> Result<Duration, String> {
    let bad = || format!("`{text}` is not a duration from 1ms to 1h: expected e.g. 2s or 500ms");
    let text = text.trim();
    let (number, scale) = match text.strip_suffix("ms") {
        Some(number) => (number, 1.0),
        None => (text.strip_suffix('s').ok_or_else(bad)?, 1000.0),
    };
    let value: f64 = number.trim().parse().map_err(|_| bad())?;
    let ms = value * scale;
    if !(1.0..=3_600_000.0).contains(&ms) {
        return Err(bad());
    }
    Ok(Duration::from_millis(ms.round() as u64))
}

fn parse_size(text: &str) -> Result<(u8, u8), String> {
    let bad = || format!("`{text}` is not a board size: expected WIDTHxHEIGHT, e.g. 5x5");
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u8 = w.trim().parse().map_err(|_| bad())?;
    let h: u8 = h.trim().parse().map_err(|_| bad())?;
    gmo_engine::BoardSize::new(w, h).map_err(|e| e.to_string())?;
    Ok((w, h))
}

/// One side's totals over the match.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    nodes: u64,
    thinking: Duration,
}

/// How one game ended.
#[derive(Debug, Clone, Copy)]
struct Outcome {
    /// `Some(color)` for a win, `None` for a draw.
    winner: Option<Color>,
    why: &'static str,
    plies: u32,
}

/// A match in progress: what every game needs beside its number.
struct Match<'a> {
    args: &'a ArenaArgs,
    lineups: [Lineup; 2],
    /// The agent of each side that is one (index 0: `--white`).
    agents: [Option<AgentSeat>; 2],
    tallies: [Tally; 2],
    /// The agents' faults, in game order.
    failures: Vec<Failure>,
}

pub fn run(args: ArenaArgs) -> ExitCode {
    let mut arena = match Match::new(&args) {
        Ok(arena) => arena,
        Err(message) => {
            eprintln!("gmo arena: {message}");
            return ExitCode::from(2);
        }
    };
    let mut total_plies = 0u64;
    let mut capped = 0u32;
    for i in 0..args.games {
        let swap = i % 2 == 1;
        let outcome = match arena.play_game(i) {
            Ok(outcome) => outcome,
            Err(message) => {
                eprintln!("gmo arena: game {}: {message}", i + 1);
                arena.close();
                return ExitCode::FAILURE;
            }
        };
        total_plies += u64::from(outcome.plies);
        capped += u32::from(outcome.why == "ply cap");
        record(&mut arena.tallies, swap, outcome.winner);
        if !args.json {
            report::print_game(&args, i, swap, &outcome);
        }
    }
    arena.close();
    if args.json {
        println!("{}", report::json(&args, &arena.tallies, &arena.failures));
    } else {
        report::print_summary(&args, &arena.lineups, &arena.tallies, total_plies, capped);
        report::print_failures(&arena.failures);
    }
    ExitCode::SUCCESS
}

impl<'a> Match<'a> {
    /// The lineups, and the agents' programs started: a command that cannot start stops the
    /// match before its first game.
    fn new(args: &'a ArenaArgs) -> Result<Match<'a>, String> {
        let lineups = choose_lineups(args)?;
        let mut agents = [None, None];
        for (slot, (flag, side)) in agents
            .iter_mut()
            .zip([("--white", &args.white), ("--black", &args.black)])
        {
            if let Side::Exec { argv, .. } = side {
                let echo = args.show.then(|| format!("[{flag} agent] "));
                let mut agent = AgentSeat::new(argv.clone(), echo);
                agent.ready().map_err(|e| format!("{flag}: {e}"))?;
                *slot = Some(agent);
            }
        }
        Ok(Match {
            args,
            lineups,
            agents,
            tallies: [Tally::default(); 2],
            failures: Vec::new(),
        })
    }

    /// Lets every agent's program exit.
    fn close(&mut self) {
        for agent in self.agents.iter_mut().flatten() {
            agent.close();
        }
    }
}

/// The lineups of the `--white` and `--black` bots.
fn choose_lineups(args: &ArenaArgs) -> Result<[Lineup; 2], String> {
    let (width, _) = args.size;
    let fallback = match (&args.preset, width) {
        (Some(name), _) => name.as_str(),
        (None, 5) => "five",
        (None, _) => "default",
    };
    let preset = preset_by_name(fallback)
        .ok_or_else(|| format!("unknown preset `{fallback}`: expected default or five"))?;
    let choose = |flag: &str, reference: &Option<String>| -> Result<Lineup, String> {
        let lineup = match reference {
            Some(reference) => lineup_ref(reference).map_err(|e| format!("{flag}: {e}"))?,
            None => Lineup::from(preset),
        };
        if lineup.width() != usize::from(width) {
            return Err(format!(
                "{flag}: `{}` is {} wide but the board is {width} wide",
                lineup.name,
                lineup.width()
            ));
        }
        Ok(lineup)
    };
    Ok([
        choose("--white-preset", &args.white_preset)?,
        choose("--black-preset", &args.black_preset)?,
    ])
}

/// A lineup reference: a file of DNA lines if such a file exists (blank lines and lines starting
/// with `#` skipped), else a preset name or code or a comma list.
fn lineup_ref(reference: &str) -> Result<Lineup, String> {
    let path = std::path::Path::new(reference);
    if !reference.contains(',') && path.is_file() {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("cannot read {reference}: {e}"))?;
        let lines = text
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('#'));
        return Lineup::from_entries(reference, lines).map_err(|e| e.to_string());
    }
    Lineup::parse(reference).map_err(|e| e.to_string())
}

/// A seed for game `i`, or for one of its bots (`salt` 1 and 2): SplitMix64 of the parts.
fn derive(seed: u64, i: u32, salt: u64) -> u64 {
    let mut z = seed ^ (u64::from(i) << 8) ^ salt;
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn record(tallies: &mut [Tally; 2], swap: bool, winner: Option<Color>) {
    let white = usize::from(swap);
    let black = 1 - white;
    match winner {
        Some(Color::White) => {
            tallies[white].wins += 1;
            tallies[black].losses += 1;
        }
        Some(Color::Black) => {
            tallies[black].wins += 1;
            tallies[white].losses += 1;
        }
        None => {
            tallies[0].draws += 1;
            tallies[1].draws += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gmo_genome::standard;

    #[test]
    fn answer_bounds_are_seconds_or_milliseconds_from_1ms_to_1h() {
        assert_eq!(parse_within("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_within("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_within("500ms"), Ok(Duration::from_millis(500)));
        for bad in ["2", "0ms", "2h", "-1s", "4000s", "s"] {
            let refused = parse_within(bad).expect_err(bad);
            assert!(refused.contains("1ms to 1h"), "{refused}");
        }
    }

    #[test]
    fn a_lineup_from_a_file_of_dna_lines() {
        let path = std::env::temp_dir().join(format!("gmo-arena-{}.dna", std::process::id()));
        let lines = format!(
            "# a back rank, file a first\n{}\n{}\n\n{} *\n{}\n{}\n",
            standard::ROOK,
            standard::QUEEN,
            standard::BISHOP,
            standard::QUEEN,
            standard::ROOK
        );
        std::fs::write(&path, lines).expect("temp file");
        let lineup = lineup_ref(path.to_str().expect("path"));
        let _ = std::fs::remove_file(&path);
        let lineup = lineup.expect("a lineup");
        assert_eq!((lineup.width(), lineup.king_file), (5, 2));
        assert_eq!(
            lineup.genomes[1],
            standard::by_name("queen").expect("queen")
        );
    }

    #[test]
    fn each_bot_brings_its_own_lineup_of_the_board_width() {
        use clap::Parser;
        #[derive(Debug, clap::Parser)]
        struct Cli {
            #[command(flatten)]
            arena: ArenaArgs,
        }
        let args = Cli::parse_from([
            "arena",
            "--white-preset",
            "rook,queen,king*,queen,rook",
            "--size",
            "5x5",
        ])
        .arena;
        let [white, black] = choose_lineups(&args).expect("lineups");
        assert_eq!(white.name, "rook,queen,king*,queen,rook");
        assert_eq!(black.name, "five");
        let wide = Cli::parse_from(["arena", "--black-preset", "default", "--size", "5x5"]).arena;
        let refused = choose_lineups(&wide).expect_err("8 wide on 5");
        assert!(refused.contains("--black-preset"), "{refused}");
        assert!(refused.contains("8 wide"), "{refused}");
    }
}
