//! The engine's lines: legal, distinct, best first, deterministic, and clear answers where there
//! is nothing to search.

use crate::analysis::{Eval, NODES};
use crate::lines::{Line, MAX_LINES, NoLines, lines};
use crate::tests::{king_en_prise, place, sq};
use gmo_engine::{BoardSize, Color, Drawn, Piece, Position};
use gmo_genome::{Genome, standard};

/// Plays every ply of `line` on `position`, failing on the first the position refuses.
fn replay_line(position: &Position, line: &Line) {
    let mut position = position.clone();
    for (k, ply) in line.moves.iter().enumerate() {
        match &ply.promotion {
            Some(code) => {
                assert_eq!(
                    position.due_promotion(),
                    Some(ply.from),
                    "ply {k} of {line:?}"
                );
                let genome = standard::STANDARD
                    .iter()
                    .filter_map(|(_, dna)| Genome::parse(dna).ok())
                    .find(|g| g.code().to_string() == *code);
                let genome = genome.unwrap_or_else(|| panic!("no standard genome {code}"));
                position.promote(&genome).expect("the promotion is due");
            }
            None => {
                let drawn = Drawn {
                    landed: ply.to,
                    mutation: None,
                };
                let legal = position.legal_moves();
                assert!(
                    legal.iter().any(|m| m.from == ply.from && m.to == ply.to),
                    "ply {k} of {line:?} is not legal"
                );
                position
                    .replay_move(ply.from, ply.to, &drawn)
                    .expect("a legal move");
            }
        }
    }
}

#[test]
fn the_start_has_distinct_legal_lines_best_first() {
    let start = Position::default_start();
    let found = lines(&start, MAX_LINES, 2_000);
    assert_eq!(found.reason, None);
    assert_eq!(found.lines.len(), MAX_LINES);
    assert_eq!(found.side_to_move, Color::White);
    let firsts: Vec<_> = found
        .lines
        .iter()
        .map(|l| (l.moves[0].from, l.moves[0].to))
        .collect();
    let mut distinct = firsts.clone();
    distinct.sort_by_key(|(from, to)| (from.index(), to.index()));
    distinct.dedup();
    assert_eq!(distinct.len(), MAX_LINES, "{firsts:?}");
    for line in &found.lines {
        assert!(line.depth >= 1 && !line.moves.is_empty(), "{line:?}");
        assert!(line.eval.cp.is_some(), "no mate at the start: {line:?}");
        replay_line(&start, line);
    }
    let cps: Vec<i32> = found.lines.iter().filter_map(|l| l.eval.cp).collect();
    assert!(
        cps.windows(2).all(|w| w[0] >= w[1]),
        "best first for White: {cps:?}"
    );
    assert!(
        found.nodes >= 5 * 2_000,
        "each line spends its budget: {}",
        found.nodes
    );
}

#[test]
fn lines_are_deterministic_and_the_first_does_not_depend_on_how_many() {
    let start = Position::default_start();
    let one = lines(&start, 1, NODES);
    let three = lines(&start, 3, NODES);
    assert_eq!(one, lines(&start, 1, NODES));
    assert_eq!(three, lines(&start, 3, NODES));
    assert_eq!(one.lines.len(), 1);
    assert!(three.lines.contains(&one.lines[0]), "{one:?} in {three:?}");
}

#[test]
fn a_king_en_prise_is_a_mate_in_one_for_white() {
    let found = lines(&king_en_prise(), 2, 5_000);
    let best = &found.lines[0];
    assert_eq!((best.moves[0].from, best.moves[0].to), (sq("a1"), sq("a8")));
    assert_eq!(best.moves.len(), 1, "the capture ends the game: {best:?}");
    assert_eq!(best.eval.mate, Some(1));
    assert_ne!(
        found.lines[1].eval, best.eval,
        "the second line does not take the king"
    );
    // Black to move in the same position: the lines are Black's, scored from White's side.
    let mut black = king_en_prise();
    black.set_moves_played(1);
    let found = lines(&black, 1, 5_000);
    assert_eq!(found.side_to_move, Color::Black);
    assert!(found.lines[0].eval != Eval::cp(0), "{found:?}");
}

#[test]
fn a_due_promotion_is_a_line_of_its_own() {
    let mut position = Position::new(BoardSize::STANDARD);
    place(&mut position, "c8", "pawn", Color::White, false);
    place(&mut position, "e1", "king", Color::White, true);
    place(&mut position, "e8", "king", Color::Black, true);
    let found = lines(&position, 2, 2_000);
    assert_eq!(found.lines.len(), 2);
    for line in &found.lines {
        assert_eq!(line.moves[0].from, sq("c8"));
        assert!(line.moves[0].promotion.is_some(), "{line:?}");
        replay_line(&position, line);
    }
}

#[test]
fn no_king_or_no_ply_is_an_answer_without_lines() {
    let mut position = Position::new(BoardSize::STANDARD);
    place(&mut position, "e1", "king", Color::White, true);
    place(&mut position, "e8", "queen", Color::Black, false);
    let found = lines(&position, 3, 1_000);
    assert_eq!(
        (found.reason, found.lines.len()),
        (Some(NoLines::NoKing), 0)
    );
    // White's only piece, a king, has an empty genome: it never moves.
    let mut stuck = Position::new(BoardSize::STANDARD);
    let still = stuck
        .intern(&Genome::parse("").expect("empty DNA"))
        .expect("room");
    let king = Piece {
        king: true,
        ..Piece::new(still, Color::White)
    };
    stuck.put(sq("a1"), king).expect("on the board");
    place(&mut stuck, "e8", "king", Color::Black, true);
    let found = lines(&stuck, 3, 1_000);
    assert!(
        stuck.legal_moves().is_empty(),
        "the test's position has no ply"
    );
    assert_eq!(
        (found.reason, found.lines.len()),
        (Some(NoLines::NoMoves), 0)
    );
}

#[test]
fn fewer_plies_than_lines_asked_give_fewer_lines() {
    let mut position = Position::new(BoardSize::new(4, 4).expect("4×4"));
    place(&mut position, "a1", "king", Color::White, true);
    place(&mut position, "a2", "pawn", Color::White, false);
    place(&mut position, "b1", "pawn", Color::White, false);
    place(&mut position, "d4", "king", Color::Black, true);
    let plies = position.legal_moves().len();
    assert!((1..MAX_LINES).contains(&plies), "{plies} plies");
    let found = lines(&position, MAX_LINES, 1_000);
    assert_eq!(found.lines.len(), plies);
}
