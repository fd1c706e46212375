//! What a genome is worth, measured by play (docs/workbench.md).
//!
//! A [`Trial`] seats the candidate in place of a standard piece (both knights, by default) on one
//! side of the `default` preset, against the standard set on the other, and lets two equal bots
//! play. Game `i` belongs to pair `i / 2`: the candidate's side is White in even games and Black
//! in odd ones, and both games of a pair share their seeds. Every game opens with
//! [`OPENING_PLIES`] random pawn steps drawn from the pair's seed, so that deterministic bots
//! still play different games; a game still going after [`MAX_PLIES`] plies is a draw.
//!
//! The candidate side's score becomes an Elo difference, and the Elo difference a value in pawns
//! through a line fitted to the standard pieces' own results ([`CALIBRATION`]). With a node or
//! depth budget a game's result depends only on the trial and its number, so results can be
//! computed in any order, on any number of threads, and resumed.

use crate::bot::{Bot, Budget, Ply};
use crate::lineup::Lineup;
use crate::node::{Context, Step};
use crate::preset::DEFAULT;
use crate::spec::BotSpec;
use gmo_engine::{Color, Game, GameResult, Position, Settings, Status, Timestamp};
use gmo_genome::{Genome, standard};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc;

/// The bot of a trial when none is named: a node budget, so that results do not depend on the
/// machine or its load.
pub const DEFAULT_BOT: &str = "search:300n";
/// Games per estimate when none is asked.
pub const DEFAULT_GAMES: u32 = 200;
/// The piece the candidate replaces when none is named.
pub const DEFAULT_REPLACED: &str = "knight";
/// Random pawn steps that open every game (both sides together).
pub const OPENING_PLIES: u32 = 4;
/// A game still going after this many plies is a draw.
pub const MAX_PLIES: u32 = 300;
/// The pieces a candidate may replace, and their conventional values in pawns.
pub const STANDARD_VALUES: [(&str, f64); 5] = [
    ("pawn", 1.0),
    ("knight", 3.0),
    ("bishop", 3.0),
    ("rook", 5.0),
    ("queen", 9.0),
];

/// Pawns as a line in Elo, for a candidate in place of both knights: `intercept + slope × Elo`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Calibration {
    pub intercept: f64,
    pub slope: f64,
}

/// Fitted (least squares) to the standard pieces' results with the default bot, games and seed:
/// `gmo value --calibrate --games 2000` (docs/workbench.md, "Calibration").
pub const CALIBRATION: Calibration = Calibration {
    intercept: 3.219,
    slope: 0.0125,
};

impl Calibration {
    /// The least-squares line through `(elo, pawns)` points; `None` for fewer than two distinct
    /// Elo values.
    pub fn fit(points: &[(f64, f64)]) -> Option<Calibration> {
        let n = points.len() as f64;
        let mean_x = points.iter().map(|p| p.0).sum::<f64>() / n;
        let mean_y = points.iter().map(|p| p.1).sum::<f64>() / n;
        let sxx: f64 = points.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
        let sxy: f64 = points.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
        (sxx > 0.0).then(|| {
            let slope = sxy / sxx;
            Calibration {
                intercept: mean_y - slope * mean_x,
                slope,
            }
        })
    }

    /// Pawns for an Elo difference measured with `copies` replaced pieces of value `replaced`:
    /// the line is for two knights, so the gain over the replaced piece is scaled per copy.
    pub fn pawns(&self, elo: f64, replaced: f64, copies: usize) -> f64 {
        let gain_per_knight_pair = self.intercept + self.slope * elo - 3.0;
        replaced + gain_per_knight_pair * 2.0 / copies.max(1) as f64
    }
}

/// How one game ended for the candidate's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// Results for the candidate's side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw ½.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    pub fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
    }

    pub fn merge(&mut self, other: Tally) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

/// Why a trial could not be set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadTrial(pub String);

impl fmt::Display for BadTrial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadTrial {}

/// A candidate genome, the piece it replaces, the bot and the seed: everything a game needs.
#[derive(Debug, Clone)]
pub struct Trial {
    candidate: Genome,
    replaced: &'static str,
    copies: usize,
    bot: BotSpec,
    seed: u64,
    with: Lineup,
    against: Lineup,
}

impl Trial {
    /// The candidate in place of every `replaced` piece (knight, bishop, rook or queen) of the
    /// `default` preset, on the candidate's side.
    pub fn new(
        candidate: Genome,
        replaced: &str,
        bot: BotSpec,
        seed: u64,
    ) -> Result<Trial, BadTrial> {
        let (replaced, _) = STANDARD_VALUES
            .iter()
            .find(|(name, _)| *name == replaced && *name != "pawn")
            .ok_or_else(|| {
                BadTrial(format!(
                    "cannot replace `{replaced}`: expected knight, bishop, rook or queen"
                ))
            })?;
        let piece = standard::by_name(replaced)
            .ok_or_else(|| BadTrial(format!("no standard {replaced}")))?;
        let against = Lineup::from(DEFAULT);
        let copies = against.genomes.iter().filter(|g| **g == piece).count();
        let with = against
            .replacing(&piece, &candidate)
            .ok_or_else(|| BadTrial(format!("the default preset has no {replaced}")))?;
        Ok(Trial {
            candidate,
            replaced,
            copies,
            bot,
            seed,
            with,
            against,
        })
    }

    pub fn candidate(&self) -> &Genome {
        &self.candidate
    }

    pub fn replaced(&self) -> &'static str {
        self.replaced
    }

    pub fn bot(&self) -> BotSpec {
        self.bot
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The candidate's side's color in game `game`.
    pub fn candidate_color(game: u32) -> Color {
        if game % 2 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Plays game number `game` (0-based) to its end.
    pub fn play(&self, game: u32) -> Result<Outcome, String> {
        let pair = game / 2;
        let ours = Trial::candidate_color(game);
        let mut position = self.start(ours, derive(self.seed, pair, 0))?;
        let mut debuffs = ChaCha8Rng::seed_from_u64(derive(self.seed, pair, 1));
        let mut opening = ChaCha8Rng::seed_from_u64(derive(self.seed, pair, 2));
        let mut bots: [Box<dyn Bot>; 2] = [
            self.bot.build(derive(self.seed, game, 3)),
            self.bot.build(derive(self.seed, game, 4)),
        ];
        let mut plies = 0;
        while let Some(color) = position.to_move() {
            if plies >= MAX_PLIES {
                return Ok(Outcome::Draw);
            }
            let bot = &mut bots[usize::from(color == Color::Black)];
            let ply = if plies < OPENING_PLIES {
                opening_step(&position, &mut opening)
            } else {
                None
            };
            let ply = ply
                .or_else(|| bot.choose(&position, self.budget()))
                .ok_or_else(|| format!("game {game}: {} found no ply", self.bot))?;
            ply.play_on(&mut position, &mut debuffs)
                .map_err(|e| format!("game {game}: {ply} refused: {e}"))?;
            plies += 1;
        }
        Ok(match position.status() {
            Status::Over {
                result: GameResult::Draw,
                ..
            }
            | Status::InProgress => Outcome::Draw,
            Status::Over { result, .. } if result == GameResult::loss_of(ours.opponent()) => {
                Outcome::Win
            }
            Status::Over { .. } => Outcome::Loss,
        })
    }

    fn budget(&self) -> Budget {
        self.bot.budget
    }

    /// The start of a game with the candidate's side on `ours`.
    fn start(&self, ours: Color, seed: u64) -> Result<Position, String> {
        let settings = Settings::new(8, 8, Settings::MAX_INITIAL).map_err(|e| e.to_string())?;
        let mut game = Game::new(settings, seed).map_err(|e| e.to_string())?;
        for color in Color::BOTH {
            let lineup = if color == ours {
                &self.with
            } else {
                &self.against
            };
            lineup
                .seat(&mut game, color, Timestamp::EPOCH)
                .map_err(|e| format!("{} cannot be seated: {e}", lineup.name))?;
        }
        Ok(game.position().clone())
    }

    /// Plays the games of `games` on `threads` threads and adds them up; `progress` is called
    /// (on the calling thread) after every game with the tally so far. Stops at the first error.
    pub fn run(
        &self,
        games: Range<u32>,
        threads: usize,
        mut progress: impl FnMut(&Tally),
    ) -> Result<Tally, String> {
        let next = AtomicU32::new(games.start);
        let stop = AtomicBool::new(false);
        let (send, receive) = mpsc::channel();
        let mut tally = Tally::default();
        std::thread::scope(|scope| {
            for _ in 0..threads.clamp(1, games.len().max(1)) {
                let send = send.clone();
                let (next, stop, end) = (&next, &stop, games.end);
                scope.spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        let game = next.fetch_add(1, Ordering::Relaxed);
                        if game >= end {
                            break;
                        }
                        if send.send(self.play(game)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(send);
            for result in receive {
                match result {
                    Ok(outcome) => {
                        tally.add(outcome);
                        progress(&tally);
                    }
                    Err(message) => {
                        stop.store(true, Ordering::Relaxed);
                        return Err(message);
                    }
                }
            }
            Ok(tally)
        })
    }

    /// The estimate from a tally of this trial's games.
    pub fn estimate(&self, tally: Tally) -> Estimate {
        let replaced = STANDARD_VALUES
            .iter()
            .find(|(name, _)| *name == self.replaced)
            .map_or(3.0, |(_, value)| *value);
        Estimate::new(tally, |elo| CALIBRATION.pawns(elo, replaced, self.copies))
    }
}

/// The estimate from a tally of games with a candidate in place of `replaced` (as
/// [`Trial::estimate`], without the trial).
pub fn estimate(replaced: &str, tally: Tally) -> Result<Estimate, BadTrial> {
    let any = Genome::parse("").map_err(|e| BadTrial(e.to_string()))?;
    let bot = DEFAULT_BOT
        .parse()
        .map_err(|e: crate::BadSpec| BadTrial(e.0))?;
    Ok(Trial::new(any, replaced, bot, 0)?.estimate(tally))
}

/// A random pawn step (a pawn to an empty square) for the side to move, if it has one.
fn opening_step(position: &Position, rng: &mut ChaCha8Rng) -> Option<Ply> {
    let ctx = Context::new(position);
    let root = ctx.root()?;
    let mut steps = Vec::new();
    root.steps(&ctx, &mut steps);
    let board = position.board();
    steps.retain(|step| match *step {
        Step::Move { from, to, .. } => {
            board.piece_at(from).is_some_and(|p| p.pawn) && board.piece_at(to).is_none()
        }
        Step::Promote { .. } => false,
    });
    if steps.is_empty() {
        return None;
    }
    ctx.ply(steps[rng.random_range(0..steps.len())])
}

/// A seed for pair or game `i`, for one use (`salt`): SplitMix64 of the parts.
fn derive(seed: u64, i: u32, salt: u64) -> u64 {
    let mut z = seed ^ (u64::from(i) << 8) ^ salt;
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What a tally says: the score, the Elo difference and the value in pawns, each with its 95 %
/// confidence interval (normal approximation over the games' scores).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    pub tally: Tally,
    /// Points per game for the candidate's side, 0 to 1.
    pub score: f64,
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
    pub pawns: f64,
    pub pawns_low: f64,
    pub pawns_high: f64,
}

/// z for a two-sided 95 % interval.
const Z95: f64 = 1.959_964;

impl Estimate {
    /// The estimate for `tally`, turning Elo into pawns with `pawns` (increasing).
    pub fn new(tally: Tally, pawns: impl Fn(f64) -> f64) -> Estimate {
        let n = f64::from(tally.games().max(1));
        let score = tally.points() / n;
        let squares = (f64::from(tally.wins) + f64::from(tally.draws) / 4.0) / n;
        let error = ((squares - score * score).max(0.0) / n).sqrt();
        let elo = elo_of(score, n);
        let elo_low = elo_of(score - Z95 * error, n);
        let elo_high = elo_of(score + Z95 * error, n);
        Estimate {
            tally,
            score,
            elo,
            elo_low,
            elo_high,
            pawns: pawns(elo),
            pawns_low: pawns(elo_low),
            pawns_high: pawns(elo_high),
        }
    }

    pub fn games(&self) -> u32 {
        self.tally.games()
    }

    /// Half the width of the interval in pawns: the "±".
    pub fn margin(&self) -> f64 {
        (self.pawns_high - self.pawns_low) / 2.0
    }
}

impl fmt::Display for Estimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "≈ {:.1} pawns ± {:.1} ({} games)",
            self.pawns,
            self.margin(),
            self.games()
        )
    }
}

/// The Elo difference of a score, kept finite: a score is taken at least half a game from 0
/// and from 1.
fn elo_of(score: f64, games: f64) -> f64 {
    let edge = 0.5 / games.max(1.0);
    let s = score.clamp(edge, 1.0 - edge);
    // Adding 0.0 turns the -0.0 of an even score into 0.
    -400.0 * (1.0 / s - 1.0).log10() + 0.0
}
