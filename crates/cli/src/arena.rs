//! `gmo arena`: bots play each other from a preset, and the results are counted per bot.
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

mod show;

use gmo_bots::{Bot, BotSpec, Budget, Lineup, preset_by_name};
use gmo_engine::{Color, Game, GameStatus, Millis, Reason, Settings, Timestamp};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Debug, clap::Args)]
pub struct ArenaArgs {
    /// The first bot (White in even games): random, greedy, search, search:200ms, search:5000n.
    #[arg(long, default_value = "search:100ms", value_parser = parse_spec)]
    white: BotSpec,
    /// The second bot (Black in even games).
    #[arg(long, default_value = "random", value_parser = parse_spec)]
    black: BotSpec,
    /// How many games.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// The preset both sides use: default (8 wide) or five (5 wide; the default with --size 5x5).
    #[arg(long)]
    preset: Option<String>,
    /// The --white bot's lineup: a preset name or code, a comma list of genomes (standard names,
    /// standard codes or DNA; a trailing * marks the king), or a file of DNA lines.
    #[arg(long, value_name = "REF")]
    white_preset: Option<String>,
    /// The --black bot's lineup, as --white-preset.
    #[arg(long, value_name = "REF")]
    black_preset: Option<String>,
    /// The seed of every game's and bot's randomness.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Board size as WIDTHxHEIGHT (4 to 8 each), e.g. 5x5.
    #[arg(long, default_value = "8x8", value_parser = parse_size)]
    size: (u8, u8),
    /// Print the board after every ply.
    #[arg(long)]
    show: bool,
    /// Play on clocks of this many milliseconds per side (thinking time counts); none by default.
    #[arg(long)]
    clock: Option<u64>,
    /// A game still going after this many plies is stopped and counted as a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
}

fn parse_spec(text: &str) -> Result<BotSpec, String> {
    text.parse::<BotSpec>().map_err(|e| e.to_string())
}

fn parse_size(text: &str) -> Result<(u8, u8), String> {
    let bad = || format!("`{text}` is not a board size: expected WIDTHxHEIGHT, e.g. 5x5");
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u8 = w.trim().parse().map_err(|_| bad())?;
    let h: u8 = h.trim().parse().map_err(|_| bad())?;
    gmo_engine::BoardSize::new(w, h).map_err(|e| e.to_string())?;
    Ok((w, h))
}

/// One bot's totals over the match.
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

pub fn run(args: ArenaArgs) -> ExitCode {
    let lineups = match choose_lineups(&args) {
        Ok(lineups) => lineups,
        Err(message) => {
            eprintln!("gmo arena: {message}");
            return ExitCode::from(2);
        }
    };
    let mut tallies = [Tally::default(); 2];
    let mut total_plies = 0u64;
    let mut capped = 0u32;
    for i in 0..args.games {
        let swap = i % 2 == 1;
        let outcome = match play_game(&args, &lineups, i, &mut tallies) {
            Ok(outcome) => outcome,
            Err(message) => {
                eprintln!("gmo arena: game {}: {message}", i + 1);
                return ExitCode::FAILURE;
            }
        };
        total_plies += u64::from(outcome.plies);
        capped += u32::from(outcome.why == "ply cap");
        record(&mut tallies, swap, outcome.winner);
        print_game(&args, i, swap, &outcome);
    }
    print_summary(&args, &lineups, &tallies, total_plies, capped);
    ExitCode::SUCCESS
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

/// Plays game `i`; adds each bot's nodes and thinking time to `tallies` (index 0: `--white`).
fn play_game(
    args: &ArenaArgs,
    lineups: &[Lineup; 2],
    i: u32,
    tallies: &mut [Tally; 2],
) -> Result<Outcome, String> {
    let (width, height) = args.size;
    let initial = args
        .clock
        .map_or(Settings::MAX_INITIAL, |ms| Millis::from_ms(ms as i64))
        .clamp(Millis::from_ms(1), Settings::MAX_INITIAL);
    let settings = Settings::new(width, height, initial).map_err(|e| e.to_string())?;
    let mut game = Game::new(settings, derive(args.seed, i, 0)).map_err(|e| e.to_string())?;
    let swap = i % 2 == 1;
    // The index into `bots` and `lineups` of the bot playing `color`.
    let seat = |color: Color| usize::from((color == Color::Black) != swap);
    for color in Color::BOTH {
        let lineup = &lineups[seat(color)];
        lineup
            .seat(&mut game, color, Timestamp::EPOCH)
            .map_err(|e| format!("{}: {e}", lineup.name))?;
    }
    let specs = [args.white, args.black];
    let mut bots: Vec<Box<dyn Bot>> = vec![
        specs[0].build(derive(args.seed, i, 1)),
        specs[1].build(derive(args.seed, i, 2)),
    ];
    // Simulated time: it passes only while a bot thinks on a clock.
    let mut now = Timestamp::EPOCH;
    let mut plies = 0u32;
    if args.show {
        println!("game {} start\n{}", i + 1, show::render(game.position()));
    }
    while let Some(color) = game.to_move() {
        if plies >= args.max_plies {
            return Ok(Outcome {
                winner: None,
                why: "ply cap",
                plies,
            });
        }
        now = game.frozen_until(now).unwrap_or(now);
        let who = seat(color);
        let budget = budget_for(&game, specs[who].budget, args.clock.is_some(), color, now);
        let started = Instant::now();
        let nodes_before = bots[who].nodes();
        let ply = bots[who].choose_for_game(&game, budget);
        let took = started.elapsed();
        tallies[who].thinking += took;
        tallies[who].nodes += bots[who].nodes() - nodes_before;
        if args.clock.is_some() {
            now += Millis::from_std(took);
        }
        let Some(ply) = ply else {
            return Err(format!("{} found no ply in a game in progress", specs[who]));
        };
        if let Err(e) = ply.play(&mut game, color, now) {
            // A flag that fell while the bot thought ends the game; anything else is a bot bug.
            if !game.is_over() {
                return Err(format!("{} chose {ply}, refused: {e}", specs[who]));
            }
        }
        plies += 1;
        if args.show {
            println!("{plies}. {color} {ply}\n{}", show::render(game.position()));
        }
    }
    Ok(ending(&game, plies))
}

/// The bot's budget; on a clock, a time budget is capped to a 20th of what is left.
fn budget_for(game: &Game, budget: Budget, clocked: bool, color: Color, now: Timestamp) -> Budget {
    match budget {
        Budget::Time(time) if clocked => {
            let left = game
                .clock()
                .remaining_at(color, now)
                .max(Millis::from_ms(20));
            Budget::Time(time.min(left.div(20).to_std()))
        }
        other => other,
    }
}

fn ending(game: &Game, plies: u32) -> Outcome {
    let winner = match game.status() {
        GameStatus::WhiteWon => Some(Color::White),
        GameStatus::BlackWon => Some(Color::Black),
        _ => None,
    };
    let why = match game.reason() {
        Some(Reason::KingLost) => "king lost",
        Some(Reason::KingsLost) => "both kings lost",
        Some(Reason::Time) => "time",
        Some(Reason::NoLegalMoves) => "no legal moves",
        Some(Reason::Resigned) => "resigned",
        Some(Reason::Agreement) => "draw agreed",
        Some(Reason::NoFirstMove) => "no first move",
        Some(Reason::Abandoned) => "abandoned",
        Some(Reason::BotFailed) => "a bot failed",
        None => "aborted",
    };
    Outcome { winner, why, plies }
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

fn print_game(args: &ArenaArgs, i: u32, swap: bool, outcome: &Outcome) {
    let (white, black) = if swap {
        (args.black, args.white)
    } else {
        (args.white, args.black)
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

fn print_summary(
    args: &ArenaArgs,
    lineups: &[Lineup; 2],
    tallies: &[Tally; 2],
    plies: u64,
    capped: u32,
) {
    let games = args.games.max(1);
    println!(
        "\n{} games, {}x{}, seed {}, colours alternating; results per bot:",
        args.games, args.size.0, args.size.1, args.seed
    );
    println!(
        "{:<10} {:<22} {:>5} {:>6} {:>7} {:>14}  lineup",
        "seat", "bot", "wins", "draws", "losses", "nodes/s"
    );
    for (flag, spec, t, lineup) in [
        ("--white", args.white, tallies[0], &lineups[0]),
        ("--black", args.black, tallies[1], &lineups[1]),
    ] {
        let seconds = t.thinking.as_secs_f64();
        let rate = if t.nodes > 0 && seconds > 0.0 {
            format!("{:.0}", t.nodes as f64 / seconds)
        } else {
            "-".to_string()
        };
        println!(
            "{flag:<10} {:<22} {:>5} {:>6} {:>7} {rate:>14}  {} ({})",
            spec.to_string(),
            t.wins,
            t.draws,
            t.losses,
            lineup.name,
            lineup.code()
        );
    }
    println!(
        "average length: {:.1} plies; {capped} game(s) stopped at {} plies and counted as draws",
        plies as f64 / f64::from(games),
        args.max_plies
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use gmo_genome::standard;

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
