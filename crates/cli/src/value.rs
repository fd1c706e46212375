//! `gmo value GENOME`: what a genome is worth, from bot games with it in place of a standard
//! piece (docs/workbench.md). `--calibrate` measures the standard pieces themselves and fits the
//! line that turns Elo into pawns.

use gmo_bots::value::{
    CALIBRATION, Calibration, DEFAULT_BOT, DEFAULT_GAMES, DEFAULT_REPLACED, STANDARD_VALUES, Tally,
    Trial,
};
use gmo_bots::{BotSpec, genome_ref};
use gmo_genome::{Genome, standard};
use std::io::{IsTerminal, Read, Write};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Debug, clap::Args)]
pub struct ValueArgs {
    /// The genome: a standard name or code, DNA (quote it; "" is the genome with no moves), a
    /// file holding DNA, or - for standard input. Not needed with --calibrate.
    genome: Option<String>,
    /// The standard piece the candidate replaces, every copy of it on one side: knight, bishop,
    /// rook or queen.
    #[arg(long, default_value = DEFAULT_REPLACED)]
    in_place_of: String,
    /// How many games (colours alternate, so an even number is fairest).
    #[arg(long, default_value_t = DEFAULT_GAMES)]
    games: u32,
    /// The bot both sides use: search:300n (a node budget: the same on every machine),
    /// search:50ms, greedy, random.
    #[arg(long, default_value = DEFAULT_BOT, value_parser = parse_spec)]
    bot: BotSpec,
    /// The seed of every game's randomness (openings and random debuffs).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once; all cores by default.
    #[arg(long)]
    threads: Option<usize>,
    /// Measure the standard pieces in place of the knights and fit Elo to pawns.
    #[arg(long)]
    calibrate: bool,
}

fn parse_spec(text: &str) -> Result<BotSpec, String> {
    text.parse::<BotSpec>().map_err(|e| e.to_string())
}

pub fn run(args: ValueArgs) -> ExitCode {
    let threads = args.threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let result = if args.calibrate {
        calibrate(&args, threads)
    } else {
        value(&args, threads)
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("gmo value: {message}");
            ExitCode::from(2)
        }
    }
}

/// The genome named on the command line.
fn candidate(reference: &str) -> Result<Genome, String> {
    if reference == "-" {
        let mut dna = String::new();
        std::io::stdin()
            .read_to_string(&mut dna)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        return Genome::parse(&dna).map_err(|e| format!("standard input: {e}"));
    }
    if let Ok(genome) = genome_ref(reference) {
        return Ok(genome);
    }
    let path = std::path::Path::new(reference);
    if path.is_file() {
        let dna =
            std::fs::read_to_string(path).map_err(|e| format!("cannot read {reference}: {e}"))?;
        return Genome::parse(&dna).map_err(|e| format!("{reference}: {e}"));
    }
    genome_ref(reference)
}

fn value(args: &ValueArgs, threads: usize) -> Result<(), String> {
    let reference = args
        .genome
        .as_deref()
        .ok_or("name a genome (a standard name or code, DNA, or a file), or --calibrate")?;
    let genome = candidate(reference)?;
    let trial =
        Trial::new(genome, &args.in_place_of, args.bot, args.seed).map_err(|e| e.to_string())?;
    println!(
        "{} (code {}) in place of the {}s of one side, against the default preset; {} games, \
         {}, seed {}, {threads} thread(s)",
        if reference.is_empty() {
            "the genome with no moves"
        } else {
            reference
        },
        trial.candidate().code(),
        trial.replaced(),
        args.games,
        args.bot,
        args.seed,
    );
    let tally = play(&trial, args.games, threads)?;
    let estimate = trial.estimate(tally);
    println!(
        "{} wins, {} draws, {} losses: score {:.1} %",
        tally.wins,
        tally.draws,
        tally.losses,
        100.0 * estimate.score
    );
    println!(
        "Elo difference {:+.0} (95 %: {:+.0} to {:+.0})",
        estimate.elo, estimate.elo_low, estimate.elo_high
    );
    println!(
        "{estimate}; 95 %: {:.2} to {:.2} pawns",
        estimate.pawns_low, estimate.pawns_high
    );
    Ok(())
}

/// Plays the trial's games with a progress line on a terminal's standard error.
fn play(trial: &Trial, games: u32, threads: usize) -> Result<Tally, String> {
    let show = std::io::stderr().is_terminal();
    let started = Instant::now();
    let tally = trial.run(0..games, threads, |tally| {
        if show {
            progress_line(tally, games, started);
        }
    })?;
    if show {
        eprint!("\r{:79}\r", "");
    }
    Ok(tally)
}

fn progress_line(tally: &Tally, games: u32, started: Instant) {
    const WIDTH: usize = 30;
    let done = tally.games();
    let filled = (done as usize * WIDTH) / games.max(1) as usize;
    let elapsed = started.elapsed().as_secs_f64();
    let left = elapsed / f64::from(done.max(1)) * f64::from(games - done.min(games));
    eprint!(
        "\r[{}{}] {done}/{games} games, +{} ={} -{}, {left:.0}s left ",
        "#".repeat(filled),
        ".".repeat(WIDTH - filled),
        tally.wins,
        tally.draws,
        tally.losses
    );
    let _ = std::io::stderr().flush();
}

/// Every standard piece's value in place of the knights, and the line fitted through them.
fn calibrate(args: &ValueArgs, threads: usize) -> Result<(), String> {
    println!(
        "calibration: each standard piece in place of the knights of one side, {} games each, \
         {}, seed {}\n",
        args.games, args.bot, args.seed
    );
    let mut points = Vec::new();
    let mut rows = Vec::new();
    for (name, pawns) in STANDARD_VALUES {
        let genome = standard::by_name(name).ok_or_else(|| format!("no standard {name}"))?;
        let trial =
            Trial::new(genome, DEFAULT_REPLACED, args.bot, args.seed).map_err(|e| e.to_string())?;
        let tally = play(&trial, args.games, threads)?;
        let estimate = trial.estimate(tally);
        points.push((estimate.elo, pawns));
        rows.push((name, pawns, estimate));
    }
    let fit = Calibration::fit(&points).ok_or("the pieces all scored alike: nothing to fit")?;
    println!("| piece | value | wins | draws | losses | score | Elo (95 %) | fitted pawns |");
    println!("|---|---|---|---|---|---|---|---|");
    for (name, pawns, e) in &rows {
        println!(
            "| {name} | {pawns} | {} | {} | {} | {:.1} % | {:+.0} ({:+.0} to {:+.0}) | {:.2} |",
            e.tally.wins,
            e.tally.draws,
            e.tally.losses,
            100.0 * e.score,
            e.elo,
            e.elo_low,
            e.elo_high,
            fit.intercept + fit.slope * e.elo
        );
    }
    println!(
        "\nfit: pawns = {:.3} + {:.4} × Elo (in use: {:.3} + {:.4} × Elo)",
        fit.intercept, fit.slope, CALIBRATION.intercept, CALIBRATION.slope
    );
    Ok(())
}
