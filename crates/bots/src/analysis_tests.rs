//! Analysis: the formulas against lichess's numbers, and whole games replayed from their record.

use crate::analysis::{
    Eval, Judgement, NODES, PAWN_UNITS, Played, Searched, judge, move_accuracy, replay, search,
};
use crate::bot::Budget;
use crate::random::RandomBot;
use crate::search::{MATE, SearchBot};
use crate::tests::play_out;
use crate::values::Values;
use gmo_engine::{Color, Position};
use gmo_genome::standard;

#[test]
fn the_scale_is_the_search_s_own_pawn() {
    let position = Position::default_start();
    let pawn = standard::by_name("pawn").expect("pawn");
    let id = position.genomes().find(&pawn).expect("the start has pawns");
    let values = Values::new(position.genomes());
    assert_eq!(values.of(id, Color::White), PAWN_UNITS);
    assert_eq!(Eval::of_score(PAWN_UNITS, Color::White), Eval::cp(100));
    assert_eq!(Eval::of_score(-PAWN_UNITS, Color::Black), Eval::cp(100));
}

#[test]
fn mates_count_moves_from_white_s_side() {
    // The side to move wins in 3 plies: 2 moves.
    assert_eq!(Eval::of_score(MATE - 3, Color::White).mate, Some(2));
    assert_eq!(Eval::of_score(MATE - 3, Color::Black).mate, Some(-2));
    assert_eq!(Eval::of_score(-(MATE - 2), Color::White).mate, Some(-1));
}

#[test]
fn winning_chances_and_judgements_are_lichess_s() {
    assert!(Eval::cp(0).winning_chances().abs() < 1e-12);
    // 2 / (1 + e^(-0.00368208 × 300)) − 1
    let chances = Eval::cp(300).winning_chances();
    assert!((chances - 0.502_25).abs() < 1e-4, "{chances}");
    // Beyond the ceiling of 1,000 cp nothing changes; a mate counts as the ceiling.
    assert_eq!(
        Eval::cp(5_000).winning_chances(),
        Eval::cp(1_000).winning_chances()
    );
    let mate = Eval::of_score(MATE - 1, Color::Black);
    assert_eq!(mate.winning_chances(), Eval::cp(-1_000).winning_chances());
    assert_eq!(Judgement::of_drop(0.099), None);
    assert_eq!(Judgement::of_drop(0.1), Some(Judgement::Inaccuracy));
    assert_eq!(Judgement::of_drop(0.2), Some(Judgement::Mistake));
    assert_eq!(Judgement::of_drop(0.3), Some(Judgement::Blunder));
    assert!((move_accuracy(50.0, 50.0) - 99.9999).abs() < 1e-3);
    assert_eq!(move_accuracy(100.0, 0.0), 0.0);
    let ten = move_accuracy(60.0, 50.0);
    assert!((ten - (103.1668 * (-0.4354f64).exp() - 3.1669)).abs() < 1e-9);
}

#[test]
fn a_ply_that_leaves_a_king_to_be_taken_is_a_blunder() {
    // Random against search on 5×5: the random side loses a king to the search.
    let game = play_out((5, 5), &mut RandomBot::new(5), &mut SearchBot::new());
    assert!(game.is_over());
    let replayed = replay(&game.record()).expect("the record replays");
    assert_eq!(replayed.positions.len(), replayed.plies.len() + 1);
    assert_eq!(replayed.plies.len(), game.moves_played() as usize);
    let searched: Vec<Searched> = replayed
        .positions
        .iter()
        .map(|p| search(p, NODES))
        .collect();
    let last = searched
        .last()
        .and_then(|s| s.eval)
        .expect("the end is scored");
    assert_eq!(last.winner, Some(Color::Black), "{last:?}");
    let (plies, accuracy) = judge(&replayed.plies, &searched);
    assert_eq!(plies.len(), replayed.plies.len());
    // The random side's last ply let the search take a king: from then on Black mates.
    let white_plies: Vec<_> = plies
        .iter()
        .zip(&replayed.plies)
        .filter(|(_, p)| p.mover == Color::White)
        .map(|(a, _)| a)
        .collect();
    let fatal = white_plies.last().expect("white played");
    assert!(fatal.eval.winning_chances() < -0.9, "{fatal:?}");
    assert!(
        white_plies
            .iter()
            .any(|a| a.judgement == Some(Judgement::Blunder)),
        "{white_plies:?}"
    );
    let white = accuracy.white.expect("white played");
    let black = accuracy.black.expect("black played");
    assert!(white < black, "random {white} against search {black}");
    assert!((0.0..=100.0).contains(&white) && (0.0..=100.0).contains(&black));
}

#[test]
fn the_same_position_searched_twice_or_resumed_answers_the_same() {
    let game = play_out((5, 5), &mut RandomBot::new(7), &mut SearchBot::new());
    let replayed = replay(&game.record()).expect("the record replays");
    let first: Vec<Searched> = replayed
        .positions
        .iter()
        .map(|p| search(p, 3_000))
        .collect();
    // Backwards, as a process resuming in the middle would meet them.
    let mut second: Vec<Searched> = replayed
        .positions
        .iter()
        .rev()
        .map(|p| search(p, 3_000))
        .collect();
    second.reverse();
    assert_eq!(first, second);
    assert_eq!(
        judge(&replayed.plies, &first),
        judge(&replayed.plies, &second)
    );
    // A prefix judges only the plies whose both positions are searched.
    let (some, _) = judge(&replayed.plies, &first[..3]);
    assert!(some.len() <= 2);
}

/// White's only piece, a pawn that is its king, on a2: a3 is blocked, b3 can be taken — one ply.
fn a_single_ply() -> Position {
    let size = gmo_engine::BoardSize::new(5, 5).expect("5×5");
    let mut lab = gmo_engine::Lab::new(size, 1);
    let [pawn, king, knight] =
        ["pawn", "king", "knight"].map(|name| standard::by_name(name).expect(name));
    let square = |name: &str| name.parse::<gmo_engine::Square>().expect(name);
    let places = [
        ("a2", &pawn, Color::White, true, true),
        ("a3", &knight, Color::Black, false, false),
        ("b3", &knight, Color::Black, false, false),
        ("e5", &king, Color::Black, false, true),
    ];
    for (at, genome, color, is_pawn, is_king) in places {
        lab.place(square(at), genome, color, is_pawn, is_king)
            .expect("placed");
    }
    lab.position().clone()
}

/// A position with a single ply is scored (a player's search plays it unsearched): when a
/// record ends in one — a game lost on time or resigned there — its last ply is judged too.
#[test]
fn a_position_with_a_single_ply_is_scored() {
    let position = a_single_ply();
    assert_eq!(position.side_to_move(), Color::White);
    assert_eq!(position.legal_moves().len(), 1, "one ply");
    let mut bot = SearchBot::new();
    bot.analyse(&position, Budget::Nodes(2_000)).expect("a ply");
    assert_eq!(
        bot.report().depth,
        0,
        "a player's search plays it unsearched"
    );
    let searched = search(&position, 2_000);
    let eval = searched.eval.expect("scored");
    // Searched, not guessed: the pawn-king must take on b3, where the other knight hunts it down.
    assert_eq!(eval.mate, Some(-2), "{eval:?}");
    assert_eq!(
        searched
            .best
            .map(|b| (b.from.to_string(), b.to.to_string())),
        Some(("a2".to_owned(), "b3".to_owned()))
    );
    // A record whose last position is this one judges its last ply (the position before it is
    // stood in for by the same one: only the evals count).
    let start = search(&position, 2_000);
    let plies = [Played {
        mover: Color::Black,
        step: None,
    }];
    let (judged, _) = judge(&plies, &[start, searched]);
    assert_eq!(judged.len(), 1);
    assert_eq!(judged[0].eval, eval);
}
