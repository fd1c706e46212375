//! Unit tests of making moves and promotions (rules §4, §5.3).

use crate::position::{Drawn, EndReason, GameResult, Mode, PlayError, Position, Status};
use crate::square::{BoardSize, Color};
use crate::{Draws, Piece, Square, perft};
use gmo_genome::{Genome, standard};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn sq(name: &str) -> Square {
    name.parse().expect("square name")
}

fn genome(dna: &str) -> Genome {
    Genome::parse(dna).expect("test DNA")
}

fn place(position: &mut Position, at: &str, dna: &str, color: Color, pawn: bool, king: bool) {
    let id = position.intern(&genome(dna)).expect("room");
    let piece = Piece {
        pawn,
        king,
        ..Piece::new(id, color)
    };
    position.put(sq(at), piece).expect("on board");
}

/// Both kings on their back rank, so that the king rule is quiet.
fn with_kings() -> Position {
    let mut position = Position::new(BoardSize::STANDARD);
    place(
        &mut position,
        "h1",
        standard::KING,
        Color::White,
        false,
        true,
    );
    place(
        &mut position,
        "h8",
        standard::KING,
        Color::Black,
        false,
        true,
    );
    position
}

fn rng() -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(7)
}

#[test]
fn every_refused_move_leaves_the_position_untouched() {
    let start = Position::default_start();
    let legal = start.legal_moves();
    assert_eq!(legal.len(), 19);
    let mut checked = 0;
    for from in start.size().squares() {
        for to in start.size().squares() {
            let mut position = start.clone();
            let listed = legal.iter().any(|m| m.from == from && m.to == to);
            match position.play(from, to, &mut rng()) {
                Ok(ply) => {
                    assert!(listed, "{from}{to} was made but not listed");
                    assert_eq!(position.moves_played(), 1);
                    assert_eq!(ply.drawn.landed, to);
                }
                Err(_) => {
                    assert!(!listed, "{from}{to} was listed but refused");
                    assert_eq!(position.board(), start.board());
                    assert_eq!(position.moves_played(), 0);
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 64 * 64 - 19);
}

#[test]
fn only_the_side_to_move_may_move() {
    let mut position = Position::default_start();
    let black_pawn = position.play(sq("e7"), sq("e6"), &mut rng());
    assert!(matches!(black_pawn, Err(PlayError::NotYourTurn { .. })));
    position
        .play(sq("e2"), sq("e3"), &mut rng())
        .expect("a pawn step");
    assert_eq!(position.side_to_move(), Color::Black);
    position
        .play(sq("e7"), sq("e6"), &mut rng())
        .expect("now black's pawn may");
    // The lab lets anyone move.
    let made = position.make(Mode::Lab, sq("d7"), sq("d6"), Draws::Random(&mut rng()));
    assert!(made.is_ok());
}

#[test]
fn a_due_promotion_decides_the_side_and_blocks_moves() {
    let mut position = with_kings();
    place(
        &mut position,
        "a7",
        standard::PAWN,
        Color::White,
        true,
        true,
    );
    place(
        &mut position,
        "c2",
        standard::PAWN,
        Color::Black,
        true,
        false,
    );
    position
        .play(sq("a7"), sq("a8"), &mut rng())
        .expect("the pawn steps to the last rank");
    assert_eq!(position.due_promotion(), Some(sq("a8")));
    assert_eq!(position.side_to_move(), Color::White);
    assert_eq!(position.to_move(), Some(Color::White));
    assert!(position.legal_moves().is_empty());
    assert_eq!(
        position.play(sq("c2"), sq("c1"), &mut rng()),
        Err(PlayError::PromotionDue(sq("a8")))
    );
    let ply = position
        .promote(&genome(standard::QUEEN))
        .expect("promotion");
    assert_eq!(ply.at, sq("a8"));
    let queen = position.piece_at(sq("a8")).expect("the new piece");
    assert!(!queen.pawn && queen.king && queen.color == Color::White);
    assert_eq!(position.moves_played(), 1);
    assert_eq!(position.side_to_move(), Color::Black);
    assert_eq!(
        position.promote(&genome(standard::ROOK)),
        Err(PlayError::NoPromotionDue)
    );
}

#[test]
fn losing_a_king_loses_and_losing_both_draws() {
    let mut position = with_kings();
    // Captures empty both squares: both kings vanish when one king takes the other.
    let vanish = "AHH HSH HAA HHH CHC CHA HHA SAS AAA AAA AAA";
    place(&mut position, "h1", vanish, Color::White, false, true);
    place(
        &mut position,
        "a1",
        standard::ROOK,
        Color::White,
        false,
        false,
    );
    let mut both = position.clone();
    let ply = both
        .play(sq("h1"), sq("h8"), &mut rng())
        .expect("the capture");
    assert_eq!(
        ply.ended,
        Some((GameResult::Draw, EndReason::BothKingsLost))
    );
    assert_eq!(both.to_move(), None);
    assert_eq!(
        both.play(sq("a1"), sq("a2"), &mut rng()),
        Err(PlayError::GameOver)
    );

    let mut position = with_kings();
    place(
        &mut position,
        "a8",
        standard::ROOK,
        Color::White,
        false,
        false,
    );
    position
        .play(sq("a8"), sq("h8"), &mut rng())
        .expect("the rook takes the king");
    assert_eq!(
        position.status(),
        Status::Over {
            result: GameResult::WhiteWon,
            reason: EndReason::KingLost
        }
    );
}

#[test]
fn a_side_without_moves_loses() {
    let mut position = with_kings();
    place(&mut position, "h8", "", Color::Black, false, true);
    position
        .play(sq("h1"), sq("g1"), &mut rng())
        .expect("a king step");
    assert_eq!(
        position.status(),
        Status::Over {
            result: GameResult::WhiteWon,
            reason: EndReason::NoLegalMoves
        }
    );
}

#[test]
fn deviation_and_mutation_are_drawn_recorded_and_replayed() {
    // A rook-like piece that deviates (HSA) and mutates (HCC), leaving a copy of itself behind.
    let dna = "AHH HSA HCC AHA AHA AHA HHA SAS AAA AAA AAA";
    for seed in 0..40 {
        let mut position = with_kings();
        place(&mut position, "d4", dna, Color::White, false, false);
        let before = position.clone();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let ply = position
            .play(sq("d4"), sq("d6"), &mut rng)
            .expect("a listed move");
        let landed = ply.drawn.landed;
        assert!(landed.x().abs_diff(3) <= 1 && landed.y().abs_diff(5) <= 1);
        let mutant = ply.drawn.mutation.clone().expect("HCC draws a genome");
        if landed != sq("d4") {
            let copy = position.piece_at(landed).expect("the copy");
            assert_eq!(
                position.genome(copy.genome).map(|g| g.genome()),
                Some(&mutant)
            );
        }
        let mut replayed = before.clone();
        replayed
            .replay_move(sq("d4"), sq("d6"), &ply.drawn)
            .expect("the record replays");
        assert_eq!(
            replayed.board().pieces().count(),
            position.board().pieces().count()
        );
        for (at, piece) in position.board().pieces() {
            let other = replayed.piece_at(at).expect("same squares");
            let dna = |p: &Position, id| p.genome(id).map(|g| g.dna().to_string());
            assert_eq!(dna(&position, piece.genome), dna(&replayed, other.genome));
            assert_eq!(
                (piece.color, piece.pawn, piece.king),
                (other.color, other.pawn, other.king)
            );
        }
        // A draw that does not fit the move is refused.
        let far = Drawn {
            landed: sq("a1"),
            mutation: Some(mutant),
        };
        let mut refused = before.clone();
        assert!(refused.replay_move(sq("d4"), sq("d6"), &far).is_err());
        assert_eq!(refused.board(), before.board());
        let missing = Drawn {
            landed: sq("d6"),
            mutation: None,
        };
        assert!(refused.replay_move(sq("d4"), sq("d6"), &missing).is_err());
    }
}

#[test]
fn perft_counts_promotions_as_five_plies() {
    let mut position = with_kings();
    place(
        &mut position,
        "a8",
        standard::PAWN,
        Color::White,
        true,
        false,
    );
    assert_eq!(perft(&position, 1), 5);
    assert_eq!(perft(&position, 0), 1);
    let promoted: u64 = ["rook", "knight", "bishop", "queen", "king"]
        .iter()
        .map(|name| {
            let mut child = position.clone();
            child
                .promote(&standard::by_name(name).expect("standard"))
                .expect("due");
            perft(&child, 1)
        })
        .sum();
    assert_eq!(perft(&position, 2), promoted);
}

#[test]
fn perft_agrees_with_making_every_move() {
    let position = Position::default_start();
    let by_hand: u64 = position
        .legal_moves()
        .iter()
        .map(|m| {
            let mut child = position.clone();
            child.play(m.from, m.to, &mut rng()).expect("listed");
            child.legal_moves().len() as u64
        })
        .sum();
    assert_eq!(perft(&position, 2), by_hand);
}

#[test]
fn a_five_by_five_game_is_playable() {
    let size = BoardSize::new(5, 5).expect("5×5");
    let mut position = Position::new(size);
    place(
        &mut position,
        "c1",
        standard::KING,
        Color::White,
        false,
        true,
    );
    place(
        &mut position,
        "c5",
        standard::KING,
        Color::Black,
        false,
        true,
    );
    for file in ["a", "b", "c", "d", "e"] {
        place(
            &mut position,
            &format!("{file}2"),
            standard::PAWN,
            Color::White,
            true,
            false,
        );
        place(
            &mut position,
            &format!("{file}4"),
            standard::PAWN,
            Color::Black,
            true,
            false,
        );
    }
    let mut rng = rng();
    let mut plies = 0;
    while position.status() == Status::InProgress && plies < 200 {
        if position.due_promotion().is_some() {
            position.promote(&genome(standard::QUEEN)).expect("due");
        } else {
            let moves = position.legal_moves();
            let pick = moves[plies % moves.len()];
            position.play(pick.from, pick.to, &mut rng).expect("listed");
        }
        plies += 1;
        assert!(position.board().occupied().iter().all(|s| size.contains(s)));
    }
    assert!(plies > 0);
}
