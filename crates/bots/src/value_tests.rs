//! The value estimate: its arithmetic, its determinism, and that it ranks the standard pieces.

use crate::lineup::{Lineup, genome_ref};
use crate::preset::{DEFAULT, FIVE_WIDE};
use crate::spec::BotSpec;
use crate::value::{CALIBRATION, Calibration, DEFAULT_BOT, Estimate, Outcome, Tally, Trial};
use gmo_genome::{Genome, standard};

fn trial(candidate: Genome) -> Trial {
    let bot: BotSpec = DEFAULT_BOT.parse().expect("default bot");
    Trial::new(candidate, "knight", bot, 1).expect("trial")
}

fn named(name: &str) -> Genome {
    standard::by_name(name).expect("standard name")
}

/// The estimate of `games` games of the default trial of `candidate`, on two threads.
fn value_of(candidate: Genome, games: u32) -> Estimate {
    let trial = trial(candidate);
    let tally = trial.run(0..games, 2, |_| {}).expect("games");
    assert_eq!(tally.games(), games);
    trial.estimate(tally)
}

/// The default bot, seed 1, 120 games each (60 pairs). Measured with these settings: rook
/// +158 Elo (95 %: +97 to +229), 5.2 pawns; queen +470 (+378 to +650), 9.1 pawns; the genome
/// with no moves −211 (−287 to −149), 0.6 pawns; the knight is exactly even by construction
/// (3.2 pawns, the calibration's intercept). The intervals are far apart, so the order does not
/// hang on the seed; the band for "near zero" is ±1.5 pawns (2,000 games give 0.0 ± 0.2:
/// docs/workbench.md).
#[test]
fn queen_above_rook_above_knight_and_no_moves_near_zero() {
    let knight = value_of(named("knight"), 120);
    let rook = value_of(named("rook"), 120);
    let queen = value_of(named("queen"), 120);
    let empty = value_of(Genome::parse("").expect("the empty genome"), 120);
    assert!(
        queen.pawns > rook.pawns && rook.pawns > knight.pawns,
        "queen {queen}, rook {rook}, knight {knight}"
    );
    assert!(
        queen.elo_low > rook.elo_high && rook.elo_low > knight.elo_high,
        "the intervals overlap: queen {queen:?}, rook {rook:?}, knight {knight:?}"
    );
    // Near zero: within a pawn and a half of it, and clearly below a knight.
    assert!(empty.pawns.abs() < 1.5, "no moves: {empty}");
    assert!(
        empty.elo_high < knight.elo_low,
        "no moves {empty:?}, knight {knight:?}"
    );
}

#[test]
fn the_knight_against_itself_is_exactly_even() {
    // Both games of a pair share their seeds: with equal sides they are the same game with the
    // colours swapped, so each pair scores one point out of two.
    let estimate = value_of(named("knight"), 16);
    assert_eq!(estimate.score, 0.5);
    assert_eq!(estimate.elo, 0.0);
    let pawns = CALIBRATION.intercept;
    assert!((estimate.pawns - pawns).abs() < 1e-9, "{estimate:?}");
}

#[test]
fn games_do_not_depend_on_threads_or_order() {
    let trial = trial(named("bishop"));
    let one = trial.run(0..12, 1, |_| {}).expect("games");
    let two = trial.run(0..12, 2, |_| {}).expect("games");
    let mut split = trial.run(0..5, 2, |_| {}).expect("games");
    split.merge(trial.run(5..12, 1, |_| {}).expect("games"));
    assert_eq!(one, two);
    assert_eq!(one, split);
    let outcomes: Vec<Outcome> = (0..12).map(|g| trial.play(g).expect("game")).collect();
    let mut tally = Tally::default();
    outcomes.iter().for_each(|&o| tally.add(o));
    assert_eq!(tally, one);
}

#[test]
fn progress_is_reported_after_every_game() {
    let trial = trial(named("rook"));
    let mut seen = Vec::new();
    let tally = trial.run(0..6, 2, |t| seen.push(t.games())).expect("games");
    assert_eq!(seen, vec![1, 2, 3, 4, 5, 6]);
    assert_eq!(tally.games(), 6);
}

#[test]
fn the_replaced_piece_must_be_on_the_back_rank_and_not_the_king() {
    let bot: BotSpec = DEFAULT_BOT.parse().expect("bot");
    for piece in ["knight", "bishop", "rook", "queen"] {
        assert!(Trial::new(named("queen"), piece, bot, 1).is_ok(), "{piece}");
    }
    for piece in ["king", "pawn", "dragon", ""] {
        let err = Trial::new(named("queen"), piece, bot, 1).expect_err(piece);
        assert!(
            err.to_string().contains("knight, bishop, rook or queen"),
            "{err}"
        );
    }
}

#[test]
fn elo_and_interval_from_a_tally() {
    let even = Estimate::new(
        Tally {
            wins: 40,
            draws: 20,
            losses: 40,
        },
        |elo| elo,
    );
    assert_eq!(even.score, 0.5);
    assert!(even.elo.abs() < 1e-9);
    assert!(even.elo_low < 0.0 && even.elo_high > 0.0);
    assert!(
        (even.elo_low + even.elo_high).abs() < 1e-6,
        "symmetric: {even:?}"
    );
    // 75 % is 400·log10(3) ≈ 190.8 Elo.
    let three_to_one = Estimate::new(
        Tally {
            wins: 75,
            draws: 0,
            losses: 25,
        },
        |elo| elo,
    );
    assert!((three_to_one.elo - 190.85).abs() < 0.1, "{three_to_one:?}");
    // More games, a narrower interval.
    let more = Estimate::new(
        Tally {
            wins: 750,
            draws: 0,
            losses: 250,
        },
        |elo| elo,
    );
    assert!(more.elo_high - more.elo_low < three_to_one.elo_high - three_to_one.elo_low);
    // A clean sweep stays finite.
    let sweep = Estimate::new(
        Tally {
            wins: 10,
            draws: 0,
            losses: 0,
        },
        |elo| elo,
    );
    assert!(sweep.elo.is_finite() && sweep.elo > 400.0, "{sweep:?}");
}

#[test]
fn the_fit_recovers_a_line_and_scales_per_copy() {
    let points = [(-200.0, 1.0), (0.0, 3.0), (200.0, 5.0), (600.0, 9.0)];
    let fit = Calibration::fit(&points).expect("a line");
    assert!((fit.intercept - 3.0).abs() < 1e-9 && (fit.slope - 0.01).abs() < 1e-12);
    assert_eq!(Calibration::fit(&[(1.0, 1.0), (1.0, 2.0)]), None);
    // One queen replaced: the gain of the pair of knights' line counts double.
    assert!((fit.pawns(100.0, 9.0, 1) - 11.0).abs() < 1e-9);
    assert!((fit.pawns(100.0, 3.0, 2) - 4.0).abs() < 1e-9);
}

#[test]
fn lineups_by_preset_name_code_and_list() {
    assert_eq!(
        Lineup::parse("default").expect("default"),
        Lineup::from(DEFAULT)
    );
    assert_eq!(
        Lineup::parse("emcym3").expect("code"),
        Lineup::from(DEFAULT)
    );
    assert_eq!(
        Lineup::parse("five").expect("five"),
        Lineup::from(FIVE_WIDE)
    );
    let list = Lineup::parse("rook,zngq39,bishop,king,queen,bishop,knight,3gbkd6").expect("list");
    assert_eq!(list.genomes, Lineup::from(DEFAULT).genomes);
    assert_eq!(list.king_file, 3);
    assert_eq!(list.code().as_str(), "emcym3");
    let marked = Lineup::parse("rook, queen*, king, bishop, rook").expect("marked");
    assert_eq!((marked.width(), marked.king_file), (5, 1));
    let dna = format!(
        "{},{},king,{},{}",
        standard::ROOK,
        "ahh hsh haa cha cha cha hha sas aaa aaa aaa",
        standard::QUEEN,
        standard::ROOK
    );
    let with_dna = Lineup::parse(&dna).expect("DNA entries");
    assert_eq!(with_dna.genomes[1], named("rook"));
    assert_eq!(with_dna.king_file, 2);
}

#[test]
fn bad_lineups_say_why() {
    let cases = [
        ("nonsense", "neither a preset"),
        ("rook,queen,bishop,rook", "no king"),
        ("rook*,queen*,king,rook", "more than one"),
        ("king,rook,rook", "4 to 8"),
        ("king,rook,rook,dragon", "file 4"),
        ("king,rook,rook,7xxxxx", "DNA"),
    ];
    for (text, why) in cases {
        let err = Lineup::parse(text).expect_err(text);
        assert!(err.to_string().contains(why), "{text}: {err}");
    }
    assert_eq!(
        genome_ref("").expect("empty DNA"),
        Genome::parse("").expect("empty")
    );
}

#[test]
fn a_lineup_replacing_a_piece_keeps_its_king() {
    let default = Lineup::from(DEFAULT);
    let queens = default
        .replacing(&named("knight"), &named("queen"))
        .expect("knights");
    assert_eq!(queens.genomes[1], named("queen"));
    assert_eq!(queens.genomes[6], named("queen"));
    assert_eq!(queens.king_file, default.king_file);
    assert_eq!(default.replacing(&named("king"), &named("queen")), None);
    assert_eq!(default.replacing(&named("pawn"), &named("queen")), None);
}
