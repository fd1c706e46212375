//! Unit tests of kings in danger: taken, converted and replaced kings, kings a move would give
//! back, filters and blockers, both sides whoever is to move, and the game view's field.

use crate::game_tests::{at, ms, set_up, small_preset, sq};
use crate::piece::Piece;
use crate::position::Position;
use crate::square::{BoardSize, Color, Square};
use crate::view::Viewer;
use crate::{Game, GameStatus, Settings};
use gmo_genome::{Genome, standard};

/// Places pieces given as (square, DNA, side, king).
fn board(pieces: &[(&str, &str, Color, bool)]) -> Position {
    let mut position = Position::new(BoardSize::STANDARD);
    for &(at, dna, color, king) in pieces {
        let genome = Genome::parse(dna).expect("test DNA");
        let id = position.intern(&genome).expect("room");
        let piece = Piece {
            king,
            ..Piece::new(id, color)
        };
        position.put(sq(at), piece).expect("on board");
    }
    position
}

fn danger(position: &Position, victim: Color) -> Vec<Square> {
    position.kings_in_danger().get(victim).iter().collect()
}

const KING: &str = standard::KING;
const ROOK: &str = standard::ROOK;
/// Onto an enemy piece only, one square in each direction: leaves a copy of the target there,
/// owned by the mover (owner-to is the debuff HAA: "the mover").
const CONVERTER: &str = "AHH HSH HAA HHH CHS HHH HHA SAS AAA AAA AAA";
/// The same move, but the copy is owned by the mover's opponent: the target is copied back.
const MIRROR: &str = "AHH HSH HSH HHH CHS HHH HHA SAS AAA AAA AAA";
/// Onto an enemy piece only, one square each way: leaves a copy of the mover, owned by the
/// opponent.
const REPLACER: &str = "AHH HSH HSH HHH CHA HHH HHA SAS AAA AAA AAA";
/// A rook that only moves forward (HAS).
const FORWARD_ROOK: &str = "AHH HAS HAA CHA CHA CHA HHA SAS AAA AAA AAA";

#[test]
fn the_default_start_has_no_king_in_danger() {
    let start = Position::default_start();
    assert!(start.kings_in_danger().white.is_empty());
    assert!(start.kings_in_danger().black.is_empty());
}

#[test]
fn a_king_on_an_open_line_is_in_danger_whoever_is_to_move() {
    let position = board(&[
        ("a1", ROOK, Color::White, false),
        ("a7", KING, Color::Black, true),
        ("h8", KING, Color::Black, true),
        ("e1", KING, Color::White, true),
        ("e8", ROOK, Color::Black, false),
    ]);
    assert_eq!(position.side_to_move(), Color::White);
    assert_eq!(danger(&position, Color::Black), [sq("a7")]);
    // Black is not to move, but its rook reaches the white king.
    assert_eq!(danger(&position, Color::White), [sq("e1")]);
}

#[test]
fn a_blocked_line_or_a_filter_keeps_a_king_safe() {
    let position = board(&[
        ("a1", ROOK, Color::White, false),
        ("a4", ROOK, Color::Black, false),
        ("a7", KING, Color::Black, true),
        ("d8", FORWARD_ROOK, Color::Black, false),
        ("d1", KING, Color::White, true),
    ]);
    assert!(danger(&position, Color::Black).is_empty());
    // The black forward-only rook moves down the board: the white king below it is in danger.
    assert_eq!(danger(&position, Color::White), [sq("d1")]);
    let position = board(&[
        ("d1", FORWARD_ROOK, Color::White, false),
        ("d8", KING, Color::White, true),
        ("d4", FORWARD_ROOK, Color::Black, false),
        ("d3", KING, Color::Black, true),
    ]);
    assert_eq!(danger(&position, Color::Black), [sq("d3")]);
    // The black rook on d4 may not move up: the white king on d8 is safe.
    assert!(danger(&position, Color::White).is_empty());
}

#[test]
fn converting_or_replacing_a_king_counts_copying_it_back_does_not() {
    let converted = board(&[
        ("d4", CONVERTER, Color::White, false),
        ("d5", KING, Color::Black, true),
        ("a1", KING, Color::White, true),
    ]);
    assert_eq!(danger(&converted, Color::Black), [sq("d5")]);
    let mirrored = board(&[
        ("d4", MIRROR, Color::White, false),
        ("d5", KING, Color::Black, true),
        ("a1", KING, Color::White, true),
    ]);
    assert!(danger(&mirrored, Color::Black).is_empty());
    let replaced = board(&[
        ("d4", REPLACER, Color::White, false),
        ("d5", KING, Color::Black, true),
        ("a1", KING, Color::White, true),
    ]);
    assert_eq!(danger(&replaced, Color::Black), [sq("d5")]);
    // Replaced by a copy of a king that goes to the victim: it keeps as many kings.
    let given_back = board(&[
        ("d4", REPLACER, Color::White, true),
        ("d5", KING, Color::Black, true),
    ]);
    assert!(danger(&given_back, Color::Black).is_empty());
}

#[test]
fn every_threatened_king_of_a_side_is_listed() {
    let position = board(&[
        ("d4", ROOK, Color::White, false),
        ("d7", KING, Color::Black, true),
        ("b4", KING, Color::Black, true),
        ("h7", KING, Color::Black, true),
        ("a1", KING, Color::White, true),
    ]);
    assert_eq!(danger(&position, Color::Black), [sq("b4"), sq("d7")]);
}

#[test]
fn the_game_view_lists_kings_in_danger_only_in_play() {
    let settings = Settings::new(5, 5, ms(60_000)).expect("5×5");
    let mut game: Game = set_up(settings, 3, &small_preset(), 2);
    let view = game.view(Viewer::Spectator, at(0));
    assert!(view.kings_in_danger.white.is_empty() && view.kings_in_danger.black.is_empty());
    game.ready(Color::White, at(0)).expect("ready");
    game.ready(Color::Black, at(0)).expect("ready");
    // Put a black rook where it sees the white king on c1 down the c-file.
    let mut snapshot = serde_json::to_value(&game).expect("snapshot");
    let pieces = snapshot["board"]["pieces"].as_array_mut().expect("pieces");
    pieces.retain(|p| p["square"] != "c2" && p["square"] != "c4");
    let rook = pieces
        .iter()
        .find(|p| p["square"] == "a5")
        .cloned()
        .expect("black rook");
    let mut moved = rook;
    moved["square"] = "c3".into();
    pieces.push(moved);
    let game: Game = serde_json::from_value(snapshot).expect("edited snapshot loads");
    assert_eq!(game.status(), GameStatus::InProgress);
    let json = serde_json::to_value(game.view(Viewer::Player(Color::White), at(0))).expect("json");
    assert_eq!(json["kings_in_danger"]["white"], serde_json::json!(["c1"]));
    assert_eq!(json["kings_in_danger"]["black"], serde_json::json!([]));
    let mut over = game.clone();
    over.resign(Color::White, at(1)).expect("resign");
    let view = over.view(Viewer::Spectator, at(1));
    assert!(view.kings_in_danger.white.is_empty());
}

#[test]
fn move_views_say_which_moves_lose_or_expose_the_movers_king() {
    // The white rook on d2 shields its king on d1 from a black rook that only moves down the
    // board: stepping aside exposes the king, staying on the file does not, taking the attacker
    // removes the danger, and taking its own king (standard pieces may take their own) loses it.
    let position = board(&[
        ("d1", KING, Color::White, true),
        ("d2", ROOK, Color::White, false),
        ("d5", FORWARD_ROOK, Color::Black, false),
        ("h8", KING, Color::Black, true),
    ]);
    let risk = |to: &str| {
        let mv = position
            .moves_from(sq("d2"))
            .into_iter()
            .find(|mv| mv.to == sq(to))
            .unwrap_or_else(|| panic!("d2-{to} is legal"));
        let risks = position.move_risks(&mv);
        (risks.loses_own_king, risks.exposes_king)
    };
    assert_eq!(risk("e2"), (false, true), "the d-file opens");
    assert_eq!(risk("d3"), (false, false), "still in the way");
    assert_eq!(risk("d5"), (false, false), "the attacker is taken");
    assert_eq!(
        risk("d1"),
        (true, false),
        "its own king: lost at once, no next move"
    );
}

#[test]
fn standard_pieces_carry_their_name_for_every_viewer() {
    let settings = Settings::new(5, 5, ms(60_000)).expect("5×5");
    let mut game: Game = set_up(settings, 3, &small_preset(), 2);
    game.ready(Color::White, at(0)).expect("ready");
    game.ready(Color::Black, at(0)).expect("ready");
    let view = game.view(Viewer::Player(Color::Black), at(0));
    let white_king = view
        .board
        .iter()
        .find(|piece| piece.square == sq("c1"))
        .expect("the white king");
    assert_eq!(white_king.code, None, "the opponent's genome stays hidden");
    assert_eq!(
        white_king.name,
        Some("king"),
        "but a standard piece is named"
    );
    assert!(view.board.iter().all(|piece| piece.name.is_some()));
    let json = serde_json::to_value(&view).expect("json");
    assert_eq!(json["board"][0]["name"], "rook");
    assert_eq!(json["first_move_deadline"], serde_json::json!(at(30_000)));
    let moves = game.move_views(sq("c1"));
    assert!(moves.iter().all(|mv| !mv.loses_own_king), "{moves:?}");
}
