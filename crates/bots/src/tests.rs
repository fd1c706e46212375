//! Unit tests: legality, promotions, tactics in one, keys, the table, determinism, specs.

use crate::bot::{Bot, Budget, Ply};
use crate::eval::kings_taken;
use crate::greedy::GreedyBot;
use crate::preset::{DEFAULT, FIVE_WIDE};
use crate::random::RandomBot;
use crate::search::SearchBot;
use crate::spec::{BotKind, BotSpec, bot_by_name};
use crate::zobrist::position_key;
use gmo_engine::{BoardSize, Color, Game, Millis, Piece, Position, Settings, Square, Timestamp};
use gmo_genome::standard;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

pub(crate) fn sq(name: &str) -> Square {
    name.parse().expect("square name")
}

/// Puts a standard piece on `at`.
pub(crate) fn place(position: &mut Position, at: &str, name: &str, color: Color, king: bool) {
    let genome = standard::by_name(name).expect("standard name");
    let id = position.intern(&genome).expect("room");
    let piece = Piece {
        king,
        pawn: name == "pawn",
        ..Piece::new(id, color)
    };
    position.put(sq(at), piece).expect("on the board");
}

/// The default start after `plies` random plies (fewer if the game ends first).
pub(crate) fn random_prefix(seed: u64, plies: usize, size5: bool) -> Position {
    let mut position = if size5 {
        five_start()
    } else {
        Position::default_start()
    };
    let mut bot = RandomBot::new(seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..plies {
        let Some(ply) = bot.choose(&position, Budget::Nodes(1)) else {
            break;
        };
        ply.play_on(&mut position, &mut rng)
            .expect("random plies are legal");
    }
    position
}

/// The 5×5 start: the five-wide preset on both sides.
pub(crate) fn five_start() -> Position {
    let mut game =
        Game::new(Settings::new(5, 5, Millis::from_secs(60)).expect("5×5"), 1).expect("game");
    for color in Color::BOTH {
        FIVE_WIDE
            .seat(&mut game, color, Timestamp::EPOCH)
            .expect("seat");
    }
    game.position().clone()
}

/// Whether `ply` is one the position accepts now.
pub(crate) fn is_legal(position: &Position, ply: &Ply) -> bool {
    match ply {
        Ply::Move { from, to } => position
            .legal_moves()
            .iter()
            .any(|m| m.from == *from && m.to == *to),
        Ply::Promotion { at, .. } => position.due_promotion() == Some(*at),
    }
}

pub(crate) fn all_bots() -> Vec<Box<dyn Bot>> {
    vec![
        Box::new(RandomBot::new(3)),
        Box::new(GreedyBot::new(3)),
        Box::new(SearchBot::new()),
    ]
}

#[test]
fn every_bot_promotes_the_due_pawn() {
    for (pawn_at, moves_played) in [("c8", 0), ("f1", 0), ("c8", 1)] {
        let mut position = Position::new(BoardSize::STANDARD);
        let owner = if pawn_at == "c8" {
            Color::White
        } else {
            Color::Black
        };
        place(&mut position, pawn_at, "pawn", owner, false);
        place(&mut position, "e1", "king", Color::White, true);
        place(&mut position, "e8", "king", Color::Black, true);
        position.set_moves_played(moves_played);
        for mut bot in all_bots() {
            let ply = bot.choose(&position, Budget::Nodes(2_000));
            match ply {
                Some(Ply::Promotion { at, .. }) => assert_eq!(at, sq(pawn_at), "{}", bot.name()),
                other => panic!("{} chose {other:?} with a promotion due", bot.name()),
            }
        }
    }
}

/// White rook on a1 can take the black king on a8, or a black queen on c1.
pub(crate) fn king_en_prise() -> Position {
    let mut position = Position::new(BoardSize::STANDARD);
    place(&mut position, "a1", "rook", Color::White, false);
    place(&mut position, "h1", "king", Color::White, true);
    place(&mut position, "a8", "king", Color::Black, true);
    place(&mut position, "c1", "queen", Color::Black, false);
    place(&mut position, "h7", "pawn", Color::Black, false);
    position
}

#[test]
fn search_and_greedy_take_a_king_in_one() {
    let position = king_en_prise();
    let take = Ply::Move {
        from: sq("a1"),
        to: sq("a8"),
    };
    for budget in [Budget::Depth(1), Budget::Depth(3), Budget::Nodes(5_000)] {
        let (ply, score) = SearchBot::new().analyse(&position, budget).expect("a ply");
        assert_eq!(ply, take, "{budget}");
        assert!(score > 900_000, "a won game scores as one: {score}");
    }
    assert_eq!(
        GreedyBot::new(1).choose(&position, Budget::Depth(1)),
        Some(take)
    );
}

/// White's king on a1 stands on the file of Black's rook on a8; White could instead take the
/// black queen on h6 with its rook on h5.
fn king_in_danger() -> Position {
    let mut position = Position::new(BoardSize::STANDARD);
    place(&mut position, "a1", "king", Color::White, true);
    place(&mut position, "h5", "rook", Color::White, false);
    place(&mut position, "a8", "rook", Color::Black, false);
    place(&mut position, "h6", "queen", Color::Black, false);
    place(&mut position, "e8", "king", Color::Black, true);
    position
}

/// Whether the side to move can take a king of the other side now.
fn can_take_king(position: &Position) -> bool {
    let Some(side) = position.to_move() else {
        return false;
    };
    kings_taken(position.genomes(), position.board(), side) > 0
}

#[test]
fn search_avoids_losing_its_king_in_one() {
    let position = king_in_danger();
    assert!(can_take_king(&{
        let mut p = position.clone();
        p.set_moves_played(1);
        p
    }));
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let saving = position.legal_moves().into_iter().any(|m| {
        let mut child = position.clone();
        child.play(m.from, m.to, &mut rng).is_ok() && !can_take_king(&child)
    });
    assert!(saving, "the test position must allow a saving move");
    for budget in [Budget::Depth(2), Budget::Depth(4), Budget::Nodes(20_000)] {
        let ply = SearchBot::new().choose(&position, budget).expect("a ply");
        let mut child = position.clone();
        ply.play_on(&mut child, &mut rng).expect("legal");
        assert!(
            !can_take_king(&child),
            "{budget}: {ply} leaves the king en prise"
        );
    }
}

#[test]
fn zobrist_keys_follow_positions_not_paths() {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let play = |order: &[(&str, &str)], rng: &mut ChaCha8Rng| {
        let mut position = Position::default_start();
        for (from, to) in order {
            position
                .play(sq(from), sq(to), rng)
                .expect("legal pawn step");
        }
        position
    };
    let a = play(
        &[("a2", "a3"), ("a7", "a6"), ("h2", "h3"), ("h7", "h6")],
        &mut rng,
    );
    let b = play(
        &[("h2", "h3"), ("h7", "h6"), ("a2", "a3"), ("a7", "a6")],
        &mut rng,
    );
    assert_eq!(position_key(&a), position_key(&b));
    let c = play(&[("a2", "a3"), ("a7", "a6"), ("h2", "h3")], &mut rng);
    assert_ne!(position_key(&a), position_key(&c));

    let start = Position::default_start();
    let key = position_key(&start);
    let d1 = sq("d1");
    let piece = start.piece_at(d1).expect("the king");
    let flipped = |change: &dyn Fn(Piece) -> Piece| {
        let mut p = start.clone();
        p.put(d1, change(piece)).expect("on board");
        position_key(&p)
    };
    assert_ne!(key, flipped(&|p| Piece { king: !p.king, ..p }));
    assert_ne!(key, flipped(&|p| Piece { pawn: !p.pawn, ..p }));
    assert_ne!(
        key,
        flipped(&|p| Piece {
            color: p.color.opponent(),
            ..p
        })
    );
    let other_genome = start.piece_at(sq("a1")).expect("rook").genome;
    assert_ne!(
        key,
        flipped(&|p| Piece {
            genome: other_genome,
            ..p
        })
    );
    let mut moved_turn = start.clone();
    moved_turn.set_moves_played(1);
    assert_ne!(key, position_key(&moved_turn));
    assert_eq!(key, flipped(&|p| p));
}

/// Kings, knights and two pawns each: sparse, so that many move orders transpose.
fn knights_ending() -> Position {
    let mut position = Position::new(BoardSize::STANDARD);
    for (color, back, front) in [(Color::White, '1', '2'), (Color::Black, '8', '7')] {
        place(&mut position, &format!("e{back}"), "king", color, true);
        place(&mut position, &format!("b{back}"), "knight", color, false);
        place(&mut position, &format!("a{front}"), "pawn", color, false);
        place(&mut position, &format!("h{front}"), "pawn", color, false);
    }
    position
}

#[test]
fn the_table_does_not_change_the_searched_value() {
    let mut positions = vec![
        (knights_ending(), 6),
        (king_en_prise(), 5),
        (king_in_danger(), 5),
        (Position::default_start(), 4),
    ];
    for seed in 0..6 {
        let position = random_prefix(seed, 10 + 3 * seed as usize, seed % 2 == 1);
        positions.push((position, 4));
    }
    let mut saved = 0;
    for (i, (position, depth)) in positions.iter().enumerate() {
        let mut with = SearchBot::new();
        let mut without = SearchBot::without_table();
        let a = with
            .analyse(position, Budget::Depth(*depth))
            .map(|(_, s)| s);
        let b = without
            .analyse(position, Budget::Depth(*depth))
            .map(|(_, s)| s);
        assert_eq!(a, b, "position {i}");
        saved += u64::from(with.report().nodes < without.report().nodes);
    }
    assert!(saved > 0, "the table must save nodes somewhere");
}

#[test]
fn node_budgets_are_deterministic() {
    for seed in 0..4 {
        let position = random_prefix(seed, 12, false);
        let run = || {
            let mut bot = SearchBot::new();
            let ply = bot.choose(&position, Budget::Nodes(3_000 + 1_000 * seed));
            (ply, bot.report())
        };
        assert_eq!(run(), run(), "seed {seed}");
    }
}

#[test]
fn a_finished_game_has_no_ply() {
    let mut position = king_en_prise();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    position
        .play(sq("a1"), sq("a8"), &mut rng)
        .expect("the king capture");
    assert!(position.to_move().is_none());
    for mut bot in all_bots() {
        assert_eq!(
            bot.choose(&position, Budget::Nodes(100)),
            None,
            "{}",
            bot.name()
        );
    }
}

#[test]
fn specs_parse_with_budgets_and_clear_errors() {
    let spec = |s: &str| s.parse::<BotSpec>();
    assert_eq!(
        spec("search:200ms"),
        Ok(BotSpec {
            kind: BotKind::Search,
            budget: Budget::Time(Duration::from_millis(200))
        })
    );
    assert_eq!(
        spec("search:5000n").map(|s| s.budget),
        Ok(Budget::Nodes(5000))
    );
    assert_eq!(spec("search:4d").map(|s| s.budget), Ok(Budget::Depth(4)));
    assert_eq!(
        spec("search:2s").map(|s| s.budget),
        Ok(Budget::millis(2000))
    );
    assert_eq!(spec("greedy").map(|s| s.kind), Ok(BotKind::Greedy));
    assert_eq!(
        spec("search:200ms").map(|s| s.to_string()),
        Ok("search:200ms".into())
    );
    for (bad, says) in [
        ("serch", "unknown bot"),
        ("", "unknown bot"),
        ("search:", "start with a number"),
        ("search:ms", "start with a number"),
        ("search:0n", "more than zero"),
        ("search:12x", "unknown unit"),
        ("search:99999999999999999999n", "start with a number"),
        ("search:100d", "at most 40"),
        ("search:320957358956892230s", "at most 3600s"),
        ("search:3601s", "at most 3600s"),
        ("search:3600001ms", "at most 3600s"),
        ("search:1000000001n", "at most 1000000000n"),
        ("random:5n", "takes no budget"),
    ] {
        let error = spec(bad).expect_err(bad).to_string();
        assert!(error.contains(says), "{bad}: {error}");
    }
    for (at_most, budget) in [
        ("search:3600s", Budget::millis(3_600_000)),
        ("search:3600000ms", Budget::millis(3_600_000)),
        ("search:1000000000n", Budget::Nodes(1_000_000_000)),
        ("search:40d", Budget::Depth(40)),
    ] {
        assert_eq!(spec(at_most).map(|s| s.budget), Ok(budget), "{at_most}");
    }
    for name in ["random", "greedy", "search", "search:10n"] {
        assert!(bot_by_name(name).is_some(), "{name}");
    }
    assert!(bot_by_name("stockfish").is_none());
}

/// Plays a game through the `Game` API, as the arena and a service do.
pub(crate) fn play_out(size: (u8, u8), white: &mut dyn Bot, black: &mut dyn Bot) -> Game {
    let preset = if size.0 == 5 { FIVE_WIDE } else { DEFAULT };
    let settings = Settings::new(size.0, size.1, Settings::MAX_INITIAL).expect("settings");
    let mut game = Game::new(settings, 9).expect("game");
    for color in Color::BOTH {
        preset
            .seat(&mut game, color, Timestamp::EPOCH)
            .expect("seat");
    }
    let mut now = Timestamp::EPOCH;
    for _ in 0..300 {
        let Some(color) = game.to_move() else {
            break;
        };
        now = game.frozen_until(now).unwrap_or(now);
        let bot: &mut dyn Bot = if color == Color::White { white } else { black };
        let ply = bot
            .choose_for_game(&game, Budget::Nodes(2_000))
            .expect("a ply while in progress");
        ply.play(&mut game, color, now)
            .expect("the game accepts it");
    }
    game
}

#[test]
fn games_play_through_the_game_api_on_5x5_and_8x8() {
    for size in [(5, 5), (8, 8)] {
        let game = play_out(size, &mut SearchBot::new(), &mut GreedyBot::new(2));
        assert!(game.moves_played() > 0);
        let game = play_out(size, &mut RandomBot::new(5), &mut SearchBot::new());
        assert!(game.moves_played() > 0);
        assert!(game.is_over(), "search beats random within 300 plies");
    }
}
