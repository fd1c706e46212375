//! Unit tests of games and labs: setup, turns, clocks with injected time, freezes, promotions,
//! every ending, snapshots, records and views.

use crate::game::{FREEZE, Game, GameError, GameStatus, Reason, Settings};
use crate::lab::{Lab, LabError};
use crate::position::PlayError;
use crate::record::{Event, replay};
use crate::square::{BoardSize, Color, Square};
use crate::view::{PlyView, PromotionPlyView, Viewer};
use gmo_genome::{Debuff, Genome, standard};
use gmo_types::{Millis, Timestamp};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The instant `ms` milliseconds after the epoch.
pub(crate) fn at(ms: i64) -> Timestamp {
    Timestamp::from_ms(ms)
}

/// A duration of `ms` milliseconds.
pub(crate) fn ms(ms: i64) -> Millis {
    Millis::from_ms(ms)
}

pub(crate) fn sq(name: &str) -> Square {
    name.parse().expect("square name")
}

pub(crate) fn named(name: &str) -> Genome {
    standard::by_name(name).expect("standard genome")
}

pub(crate) fn default_preset() -> Vec<Genome> {
    standard::DEFAULT_PRESET.iter().map(|n| named(n)).collect()
}

/// A 5-file preset: rook, knight, king, bishop, queen.
pub(crate) fn small_preset() -> Vec<Genome> {
    ["rook", "knight", "king", "bishop", "queen"]
        .iter()
        .map(|n| named(n))
        .collect()
}

/// Both presets loaded and the pieces on `king_file` marked as kings; nobody ready yet.
pub(crate) fn set_up(settings: Settings, seed: u64, preset: &[Genome], king_file: u8) -> Game {
    let mut game = Game::new(settings, seed).expect("settings");
    let size = game.position().size();
    for color in Color::BOTH {
        game.load_preset(color, preset).expect("preset");
        let square = size
            .square(king_file, size.back_rank(color))
            .expect("on board");
        assert_eq!(game.toggle_king(color, square), Ok(true));
    }
    game
}

/// The default game, started at `t = 0` with `initial` on each clock, running from the start
/// (no first-move timers: `first_move_tests.rs` tests those).
pub(crate) fn started(initial: Millis) -> Game {
    let settings = Settings {
        initial_ms: initial,
        first_move_ms: None,
        discovery: false,
        ..Settings::default()
    };
    let mut game = set_up(settings, 11, &default_preset(), 3);
    game.ready(Color::White, at(0)).expect("white ready");
    game.ready(Color::Black, at(0)).expect("black ready");
    assert_eq!(game.status(), GameStatus::InProgress);
    game
}

/// The first legal move of the side to move whose piece freezes and takes no king.
pub(crate) fn freezing_move(game: &Game) -> (Square, Square) {
    let position = game.position();
    game.legal_moves()
        .into_iter()
        .find(|m| {
            let piece = position.piece_at(m.from).expect("mover");
            let takes_king = position.piece_at(m.to).is_some_and(|p| p.king);
            let freezes = position
                .genome(piece.genome)
                .is_some_and(|g| g.has(Debuff::Freeze));
            freezes && !takes_king
        })
        .map(|m| (m.from, m.to))
        .expect("the queen freezes and can move at the start")
}

/// A legal move of the side to move that does not freeze.
pub(crate) fn quiet_move(game: &Game) -> (Square, Square) {
    let position = game.position();
    game.legal_moves()
        .into_iter()
        .find(|m| {
            let piece = position.piece_at(m.from).expect("mover");
            let takes_king = position.piece_at(m.to).is_some_and(|p| p.king);
            let debuffs = position.genome(piece.genome).expect("genome").debuffs();
            !takes_king && debuffs.iter().all(|d| d != Debuff::Freeze)
        })
        .map(|m| (m.from, m.to))
        .expect("a quiet move")
}

#[test]
fn setup_errors_change_nothing() {
    let mut game = Game::new(Settings::default(), 1).expect("settings");
    let before = game.clone();
    assert_eq!(
        game.load_preset(Color::White, &default_preset()[..7]),
        Err(GameError::PresetLength {
            expected: 8,
            got: 7
        })
    );
    assert_eq!(
        game.ready(Color::White, at(0)),
        Err(GameError::NoPreset(Color::White))
    );
    assert_eq!(game, before);

    game.load_preset(Color::White, &default_preset())
        .expect("preset");
    let loaded = game.clone();
    assert_eq!(
        game.load_preset(Color::White, &default_preset()),
        Err(GameError::PresetLoaded(Color::White))
    );
    assert_eq!(
        game.ready(Color::White, at(0)),
        Err(GameError::NoKing(Color::White))
    );
    assert_eq!(
        game.toggle_king(Color::Black, sq("d1")),
        Err(GameError::NotYourPiece {
            color: Color::Black,
            square: sq("d1")
        })
    );
    assert_eq!(
        game.toggle_king(Color::White, sq("d4")),
        Err(GameError::EmptySquare(sq("d4")))
    );
    assert_eq!(
        game.play(Color::White, sq("b1"), sq("c3"), at(0))
            .map(|_| ()),
        Err(GameError::NotInProgress {
            action: "move",
            status: GameStatus::Setup
        })
    );
    assert_eq!(game, loaded);

    assert_eq!(game.toggle_king(Color::White, sq("d1")), Ok(true));
    game.ready(Color::White, at(0)).expect("ready");
    assert!(matches!(
        game.toggle_king(Color::White, sq("e1")),
        Err(GameError::SeatReady { .. })
    ));
    game.load_preset(Color::Black, &default_preset())
        .expect("preset");
    game.toggle_king(Color::Black, sq("d8")).expect("king");
    game.ready(Color::Black, at(500)).expect("ready");
    assert_eq!(game.started(), Some(at(500)));
    assert!(matches!(
        game.toggle_king(Color::Black, sq("e8")),
        Err(GameError::NotInSetup { .. })
    ));
    assert!(matches!(
        game.load_preset(Color::Black, &default_preset()),
        Err(GameError::NotInSetup { .. })
    ));
    assert!(Settings::new(3, 8, ms(1000)).is_err());
    assert!(Settings::new(8, 8, ms(0)).is_err());
}

#[test]
fn the_running_clock_is_the_side_to_moves() {
    let mut game = started(ms(60_000));
    let view = game.view(Viewer::Spectator, at(10_000));
    assert_eq!(view.clocks.white_ms, ms(50_000));
    assert_eq!(view.clocks.black_ms, ms(60_000));
    assert_eq!(view.clocks.running, Some(Color::White));
    assert_eq!(game.deadline(), Some(at(60_000)));
    let (from, to) = quiet_move(&game);
    game.play(Color::White, from, to, at(10_000)).expect("move");
    let view = game.view(Viewer::Spectator, at(25_000));
    assert_eq!(view.clocks.white_ms, ms(50_000));
    assert_eq!(view.clocks.black_ms, ms(45_000));
    assert_eq!(view.clocks.running, Some(Color::Black));
    assert_eq!(game.deadline(), Some(at(70_000)));
}

#[test]
fn a_flag_falls_on_tick_and_the_other_side_wins() {
    let mut game = started(ms(60_000));
    let (from, to) = quiet_move(&game);
    game.play(Color::White, from, to, at(1_000)).expect("move");
    assert!(!game.tick(at(60_999)));
    assert_eq!(game.status(), GameStatus::InProgress);
    assert!(game.tick(at(90_000)));
    assert_eq!(game.status(), GameStatus::WhiteWon);
    assert_eq!(game.reason(), Some(Reason::Time));
    assert_eq!(
        game.events().last(),
        Some(&Event::Time { at_ms: at(61_000) })
    );
    assert_eq!(game.to_move(), None);
    assert_eq!(game.deadline(), None);
    let view = game.view(Viewer::Player(Color::White), at(100_000));
    assert_eq!(view.clocks.black_ms, Millis::ZERO);
    assert_eq!(view.clocks.white_ms, ms(59_000));
    assert_eq!(replay(&game.record()), Ok(game));
}

#[test]
fn a_late_call_ends_the_game_on_time_first() {
    let mut game = started(ms(60_000));
    let (from, to) = quiet_move(&game);
    assert!(matches!(
        game.play(Color::White, from, to, at(60_000)),
        Err(GameError::NotInProgress { .. })
    ));
    assert_eq!(game.status(), GameStatus::BlackWon);
    assert_eq!(game.reason(), Some(Reason::Time));
}

#[test]
fn a_freeze_moves_time_and_blocks_moves_for_five_seconds() {
    let mut game = started(ms(300_000));
    let (from, to) = freezing_move(&game);
    let ply = game
        .play(Color::White, from, to, at(1_000))
        .expect("freezing move");
    assert!(ply.froze);
    let clocks = game.view(Viewer::Spectator, at(1_000)).clocks;
    assert_eq!(clocks.white_ms, ms(299_000) - FREEZE);
    assert_eq!(clocks.black_ms, ms(300_000) + FREEZE);
    assert_eq!(game.frozen_until(at(1_000)), Some(at(1_000) + FREEZE));
    assert_eq!(
        game.view(Viewer::Spectator, at(3_000)).frozen_until,
        Some(at(6_000))
    );

    let (from, to) = quiet_move(&game);
    let before = game.clone();
    assert_eq!(
        game.play(Color::Black, from, to, at(5_999)).map(|_| ()),
        Err(GameError::Frozen {
            until_ms: at(6_000)
        })
    );
    assert_eq!(game, before);
    game.play(Color::Black, from, to, at(6_000))
        .expect("after the window");
    assert_eq!(game.frozen_until(at(6_000)), None);
    let clocks = game.view(Viewer::Spectator, at(6_000)).clocks;
    assert_eq!(clocks.black_ms, ms(300_000));
    assert_eq!(replay(&game.record()), Ok(game));
}

#[test]
fn a_freeze_that_empties_the_movers_clock_loses_on_time() {
    let mut game = started(ms(4_000));
    let (from, to) = freezing_move(&game);
    game.play(Color::White, from, to, at(100)).expect("move");
    assert_eq!(game.status(), GameStatus::BlackWon);
    assert_eq!(game.reason(), Some(Reason::Time));
    assert_eq!(
        game.view(Viewer::Spectator, at(100)).clocks.white_ms,
        Millis::ZERO
    );
    assert_eq!(replay(&game.record()), Ok(game));
}

#[test]
fn resign_ends_the_game_and_nothing_is_played_after() {
    let mut game = started(ms(60_000));
    assert!(matches!(game.resign(Color::Black, at(10)), Ok(())));
    assert_eq!(game.status(), GameStatus::WhiteWon);
    assert_eq!(game.reason(), Some(Reason::Resigned));
    let over = game.clone();
    let (from, to) = (sq("b1"), sq("c3"));
    assert!(game.play(Color::White, from, to, at(20)).is_err());
    assert!(game.resign(Color::White, at(20)).is_err());
    assert!(game.abort(Color::White, at(20)).is_err());
    assert_eq!(game, over);
}

#[test]
fn abort_only_before_whites_first_move() {
    let mut setup = Game::new(Settings::default(), 3).expect("settings");
    setup.abort(Color::Black, at(0)).expect("abort in setup");
    assert_eq!(setup.status(), GameStatus::Aborted);
    assert_eq!(setup.reason(), None);
    assert_eq!(replay(&setup.record()), Ok(setup));

    let mut game = started(ms(60_000));
    let mut early = game.clone();
    early
        .abort(Color::White, at(5))
        .expect("abort before the first move");
    assert_eq!(early.status(), GameStatus::Aborted);
    assert_eq!(early.to_move(), None);

    let (from, to) = quiet_move(&game);
    game.play(Color::White, from, to, at(5)).expect("move");
    let before = game.clone();
    assert_eq!(
        game.abort(Color::Black, at(6)),
        Err(GameError::AbortTooLate)
    );
    assert_eq!(game, before);
}

#[test]
fn stop_ends_a_game_without_result_at_any_time_and_replays() {
    let mut game = started(ms(60_000));
    let (from, to) = quiet_move(&game);
    game.play(Color::White, from, to, at(5)).expect("move");
    game.stop(at(7)).expect("stopped after a move");
    assert_eq!(game.status(), GameStatus::Aborted);
    assert_eq!((game.reason(), game.to_move()), (None, None));
    assert_eq!(replay(&game.record()), Ok(game.clone()));
    let over = game.clone();
    assert!(
        game.stop(at(8)).is_err(),
        "an ended game is not stopped again"
    );
    assert_eq!(game, over);
}

#[test]
fn moves_are_refused_out_of_turn() {
    let mut game = started(ms(60_000));
    let before = game.clone();
    assert_eq!(
        game.play(Color::Black, sq("b8"), sq("c6"), at(1))
            .map(|_| ()),
        Err(GameError::NotYourTurn {
            color: Color::Black,
            to_move: Color::White
        })
    );
    assert!(matches!(
        game.play(Color::White, sq("b8"), sq("c6"), at(1)),
        Err(GameError::Move(PlayError::NotYourTurn { .. }))
    ));
    assert!(matches!(
        game.play(Color::White, sq("b1"), sq("b5"), at(1)),
        Err(GameError::Move(PlayError::Illegal { .. }))
    ));
    assert_eq!(game, before);
}

/// Plays seeded random legal moves (promoting to a queen) `dt` ms apart until `stop` says so or
/// the game ends; returns the time reached.
pub(crate) fn play_randomly(
    game: &mut Game,
    rng: &mut ChaCha8Rng,
    mut now: Timestamp,
    dt: Millis,
    max_plies: usize,
    stop: impl Fn(&Game) -> bool,
) -> Timestamp {
    let queen = named("queen");
    for _ in 0..max_plies {
        if game.is_over() || stop(game) {
            break;
        }
        now = now.max(game.frozen_until(now).unwrap_or(now)) + dt;
        let side = game.to_move().expect("in progress");
        if game.promotion_due().is_some() {
            game.promote(side, &queen, now).expect("promotion");
            continue;
        }
        let moves = game.legal_moves();
        let pick = moves[rng.random_range(0..moves.len())];
        game.play(side, pick.from, pick.to, now)
            .expect("listed move");
    }
    now
}

fn small_game(seed: u64) -> Game {
    let settings = Settings::new(5, 5, ms(3_600_000)).expect("5×5");
    let mut game = set_up(settings, seed, &small_preset(), 2);
    game.ready(Color::Black, at(0)).expect("ready");
    game.ready(Color::White, at(0)).expect("ready");
    game
}

#[test]
fn a_five_by_five_game_is_fully_playable() {
    let game = small_game(1);
    let position = game.position();
    for (square, pawn) in [("a2", true), ("e4", true), ("c1", false), ("e5", false)] {
        let piece = position.piece_at(sq(square)).expect("set up");
        assert_eq!(piece.pawn, pawn, "{square}");
    }
    assert_eq!(position.board().occupied().len(), 20);
    let mut promotions = 0;
    let mut endings = 0;
    for seed in 0..40 {
        let mut game = small_game(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        play_randomly(&mut game, &mut rng, at(0), ms(100), 400, |_| false);
        promotions += game
            .events()
            .iter()
            .filter(|e| matches!(e, Event::Promotion { .. }))
            .count();
        if game.is_over() {
            endings += 1;
            assert!(game.reason().is_some());
        }
        let json = serde_json::to_string(&game).expect("snapshot");
        let back: Game = serde_json::from_str(&json).expect("snapshot loads");
        assert_eq!(back, game);
        let record = serde_json::to_string(&game.record()).expect("record");
        let record = serde_json::from_str(&record).expect("record loads");
        assert_eq!(replay(&record), Ok(game));
    }
    assert!(promotions > 0, "no promotion in 40 random 5×5 games");
    assert!(endings > 0, "no random 5×5 game ended");
}

#[test]
fn the_promoting_sides_clock_runs_while_its_promotion_is_due() {
    let mut found = false;
    for seed in 0..60 {
        let mut game = small_game(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let now = play_randomly(&mut game, &mut rng, at(0), ms(10), 400, |g| {
            g.promotion_due().is_some()
        });
        let Some(due) = game.promotion_due() else {
            continue;
        };
        found = true;
        let owner = game.position().piece_at(due).expect("pawn").color;
        assert_eq!(game.to_move(), Some(owner));
        assert_eq!(game.clock().running(), Some(owner));
        let now = game.frozen_until(now).unwrap_or(now);
        let left = game.view(Viewer::Spectator, now).clocks;
        let later = game.view(Viewer::Spectator, now + ms(700)).clocks;
        let (a, b) = match owner {
            Color::White => (left.white_ms, later.white_ms),
            Color::Black => (left.black_ms, later.black_ms),
        };
        assert_eq!(a - b, ms(700));
        let before = game.clone();
        let any = game
            .position()
            .board()
            .side(owner)
            .first()
            .expect("a piece");
        assert_eq!(
            game.play(owner, any, any, now + ms(700)).map(|_| ()),
            Err(GameError::PromotionDue(due))
        );
        assert!(matches!(
            game.promote(owner.opponent(), &named("rook"), now + ms(700)),
            Err(GameError::NotYourTurn { .. })
        ));
        assert_eq!(game, before);
        let ply = game
            .promote(owner, &named("rook"), now + ms(700))
            .expect("promotion");
        let piece = game.position().piece_at(due).expect("promoted");
        assert!(!piece.pawn);
        let view = game.promotion_ply_view(&ply, Viewer::Player(owner.opponent()));
        assert!(
            matches!(
                view,
                PlyView::Promotion(PromotionPlyView { genome: None, .. })
            ) || game.is_over()
        );
        break;
    }
    assert!(found, "no random 5×5 game reached a promotion");
}

#[test]
fn views_hide_the_opponents_genomes_until_the_end() {
    let mut game = started(ms(60_000));
    let white = game.view(Viewer::Player(Color::White), at(0));
    let spectator = game.view(Viewer::Spectator, at(0));
    for piece in &white.board {
        assert_eq!(piece.code.is_some(), piece.color == Color::White);
        assert_eq!(piece.dna.is_some(), piece.color == Color::White);
    }
    assert!(spectator.board.iter().all(|p| p.code.is_none()));
    // Equal genomes, equal labels: the two sides' rooks.
    let species = |view: &crate::GameView, at: &str| {
        view.board
            .iter()
            .find(|p| p.square == sq(at))
            .map(|p| p.species.clone())
    };
    assert_eq!(species(&white, "a1"), species(&white, "h8"));
    assert_ne!(species(&white, "a1"), species(&white, "b1"));
    let json = serde_json::to_value(&white).expect("json");
    assert_eq!(json["status"], "in_progress");
    assert_eq!(json["to_move"], "white");
    assert_eq!(json["you"], "white");
    assert_eq!(json["board"][0]["square"], "a1");
    assert_eq!(json["seats"]["black"]["ready"], true);
    assert_eq!(json["clocks"]["running"], "white");
    game.resign(Color::White, at(1)).expect("resign");
    let black = game.view(Viewer::Spectator, at(1));
    assert!(black.board.iter().all(|p| p.code.is_some()));
    let json = serde_json::to_value(&black).expect("json");
    assert_eq!(json["status"], "black_won");
    assert_eq!(json["reason"], "resigned");
}

#[test]
fn move_views_have_the_api_shape() {
    let game = started(ms(60_000));
    let views = game.move_views(sq("b1"));
    assert!(!views.is_empty());
    let json = serde_json::to_value(views[0]).expect("json");
    assert_eq!(json["from"], "b1");
    assert!(
        ["mover", "target", "nothing"].contains(&json["to_after"]["what"].as_str().unwrap_or(""))
    );
    assert!(["mover", "opponent"].contains(&json["from_after"]["owner"].as_str().unwrap_or("")));
}

#[test]
fn lab_does_anything_anytime_and_never_ends() {
    let size = BoardSize::new(6, 5).expect("6×5");
    let mut lab = Lab::new(size, 9);
    let rook = named("rook");
    let pawn = named("pawn");
    lab.place(sq("a1"), &rook, Color::Black, false, true)
        .expect("place");
    assert_eq!(
        lab.place(sq("g1"), &rook, Color::Black, false, false),
        Err(LabError::NotOnBoard(sq("g1")))
    );
    assert_eq!(lab.toggle_king(sq("a1")), Ok(false));
    assert_eq!(
        lab.toggle_king(sq("b1")),
        Err(LabError::EmptySquare(sq("b1")))
    );
    // A white pawn on the last rank is offered for promotion but blocks nothing.
    lab.place(sq("c5"), &pawn, Color::White, true, false)
        .expect("place");
    assert_eq!(lab.view().promotion_due, Some(sq("c5")));
    let moves = lab.moves_from(sq("a1"));
    assert!(!moves.is_empty());
    lab.play(moves[0].from, moves[0].to)
        .expect("black moves any time");
    lab.promote(&named("queen")).expect("promote");
    assert_eq!(lab.view().promotion_due, None);
    assert_eq!(
        lab.save_preset(Color::White),
        Err(LabError::BackRankIncomplete(sq("a1")))
    );
    let preset: Vec<Genome> = ["rook", "knight", "bishop", "king", "queen", "rook"]
        .iter()
        .map(|n| named(n))
        .collect();
    assert!(matches!(
        lab.load_preset(Color::White, &preset[..5]),
        Err(LabError::PresetLength { .. })
    ));
    lab.load_preset(Color::White, &preset).expect("preset");
    assert_eq!(lab.save_preset(Color::White), Ok(preset));
    assert_eq!(lab.erase(sq("a2")), Ok(true));
    let json = serde_json::to_string(&lab).expect("lab");
    let back: Lab = serde_json::from_str(&json).expect("lab loads");
    assert_eq!(back, lab);
    let view = serde_json::to_value(lab.view()).expect("view");
    assert_eq!(view["width"], 6);
    assert!(view["board"][0]["dna"].is_string());
}

#[test]
fn lab_draws_repeat_with_the_seed() {
    let size = BoardSize::STANDARD;
    let mutant = Genome::parse("AHH HCC HSA CHA CHA CHA HHA SAS").expect("dna");
    let run = |seed| {
        let mut lab = Lab::new(size, seed);
        lab.place(sq("d4"), &mutant, Color::White, false, false)
            .expect("place");
        let moves = lab.moves_from(sq("d4"));
        let ply = lab.play(moves[0].from, moves[0].to).expect("move");
        (ply.drawn, lab.snapshot())
    };
    assert_eq!(run(4), run(4));
    assert!((0..20).map(run).any(|r| r != run(4)));
}

#[test]
fn a_lab_keeps_only_the_genomes_on_its_board() {
    let mut lab = Lab::new(BoardSize::STANDARD, 3);
    let rook = named("rook");
    for name in ["pawn", "knight", "bishop", "queen", "king"] {
        lab.place(sq("a1"), &named(name), Color::White, false, false)
            .expect("place");
    }
    lab.place(sq("h8"), &rook, Color::Black, false, true)
        .expect("place");
    assert_eq!(lab.position().genomes().len(), 6, "the table in memory");
    let kept = lab.snapshot().board.genomes;
    assert_eq!(kept, [named("king").to_string(), rook.to_string()]);
    assert_eq!(
        lab.dna_letters(),
        kept.iter().map(String::len).sum::<usize>()
    );
    // Rebuilt from the compact data, the lab is the same lab and keeps working.
    let json = serde_json::to_string(&lab).expect("lab");
    let mut back: Lab = serde_json::from_str(&json).expect("lab loads");
    assert_eq!(back.view(), lab.view());
    assert_eq!(back.position().genomes().len(), 2);
    // A mutant that replaces its genome leaves the old one behind.
    let mutant = Genome::parse("AHH HCC HSA CHA CHA CHA HHA SAS").expect("dna");
    back.place(sq("d4"), &mutant, Color::White, false, false)
        .expect("place");
    let moves = back.moves_from(sq("d4"));
    let ply = back.play(moves[0].from, moves[0].to).expect("move");
    let mutated = ply.drawn.mutation.expect("a mutant").to_string();
    let kept = back.snapshot().board.genomes;
    assert!(
        kept.contains(&mutated) && !kept.contains(&mutant.to_string()),
        "{kept:?}"
    );
}

#[test]
fn a_freezing_move_that_takes_the_last_king_wins_outright() {
    // Jumps three ranks north and marks where it lands; freezes the game when it moves.
    let striker = Genome::parse("AHH HSC HAA HHH CHA CHA HHA CSA SAA").expect("dna");
    let settings = Settings::new(4, 4, ms(60_000))
        .and_then(|s| s.with_first_move(None))
        .expect("4×4");
    let mut game = Game::new(settings, 5).expect("settings");
    let white = [striker, named("king"), named("rook"), named("rook")];
    let black = [named("king"), named("rook"), named("rook"), named("knight")];
    game.load_preset(Color::White, &white).expect("preset");
    game.load_preset(Color::Black, &black).expect("preset");
    game.toggle_king(Color::White, sq("b1")).expect("king");
    game.toggle_king(Color::Black, sq("a4")).expect("king");
    game.ready(Color::White, at(0)).expect("ready");
    game.ready(Color::Black, at(0)).expect("ready");
    let ply = game
        .play(Color::White, sq("a1"), sq("a4"), at(1_000))
        .expect("the striker takes the king");
    assert!(ply.froze);
    assert_eq!(game.status(), GameStatus::WhiteWon);
    assert_eq!(game.reason(), Some(Reason::KingLost));
    assert_eq!(game.frozen_until(at(1_000)), None);
    let clocks = game.view(Viewer::Spectator, at(2_000)).clocks;
    assert_eq!((clocks.white_ms, clocks.black_ms), (ms(59_000), ms(60_000)));
    assert_eq!(clocks.running, None);
    // Over: every genome is open to everyone.
    let view = game.view(Viewer::Player(Color::Black), at(2_000));
    assert!(view.board.iter().all(|p| p.dna.is_some()));
    assert_eq!(replay(&game.record()), Ok(game));
}

#[test]
fn records_and_snapshots_round_trip_through_json() {
    let mut game = started(ms(60_000));
    let (from, to) = freezing_move(&game);
    game.play(Color::White, from, to, at(100)).expect("move");
    let record = game.record();
    let json = serde_json::to_value(&record).expect("record");
    assert_eq!(json["events"][0]["type"], "move");
    assert_eq!(json["events"][0]["from"], from.to_string());
    assert_eq!(json["setup"]["pieces"][0]["square"], "a1");
    let back: crate::GameRecord = serde_json::from_value(json).expect("record loads");
    assert_eq!(back, record);
    let snapshot: Game =
        serde_json::from_str(&serde_json::to_string(&game).expect("json")).expect("loads");
    assert_eq!(snapshot, game);
    // A tampered record does not replay.
    let mut bad = record.clone();
    if let Some(Event::Move { to, .. }) = bad.events.first_mut() {
        *to = sq("h5");
    }
    assert!(matches!(
        replay(&bad),
        Err(crate::ReplayError::Event { index: 0, .. })
    ));
    let mut bad = record;
    bad.status = GameStatus::Draw;
    assert!(matches!(
        replay(&bad),
        Err(crate::ReplayError::Outcome { .. })
    ));
}

#[test]
fn promotions_wait_for_the_end_of_a_freeze() {
    // Steps onto an own neighbour, leaving on its from square a copy of that neighbour owned by
    // the opponent, and freezes: from a1 onto the a2 pawn it leaves a black pawn on rank 1.
    let swapper = Genome::parse("AHH HSH HSC SHA HHH HHH HHA SAS").expect("dna");
    let settings = Settings::new(5, 5, ms(60_000))
        .and_then(|s| s.with_first_move(None))
        .expect("5×5");
    let mut game = Game::new(settings, 8).expect("settings");
    let mut white = small_preset();
    white[0] = swapper;
    game.load_preset(Color::White, &white).expect("preset");
    game.load_preset(Color::Black, &small_preset())
        .expect("preset");
    game.toggle_king(Color::White, sq("c1")).expect("king");
    game.toggle_king(Color::Black, sq("c5")).expect("king");
    game.ready(Color::White, at(0)).expect("ready");
    game.ready(Color::Black, at(0)).expect("ready");
    let ply = game
        .play(Color::White, sq("a1"), sq("a2"), at(1_000))
        .expect("the swap");
    assert!(ply.froze);
    assert_eq!(game.promotion_due(), Some(sq("a1")));
    assert_eq!(game.to_move(), Some(Color::Black));
    assert_eq!(game.clock().running(), Some(Color::Black));
    let before = game.clone();
    assert_eq!(
        game.promote(Color::Black, &named("queen"), at(5_999))
            .map(|_| ()),
        Err(GameError::Frozen {
            until_ms: at(6_000)
        })
    );
    assert_eq!(game, before);
    game.promote(Color::Black, &named("queen"), at(6_000))
        .expect("after the window");
    let queen = game.position().piece_at(sq("a1")).expect("promoted");
    assert_eq!((queen.color, queen.pawn), (Color::Black, false));
    // Black's clock ran through the freeze and the promotion; the promotion is not a move.
    assert_eq!(game.to_move(), Some(Color::Black));
    let clocks = game.view(Viewer::Spectator, at(6_000)).clocks;
    assert_eq!(clocks.black_ms, ms(60_000) + FREEZE - ms(5_000));
    assert_eq!(clocks.white_ms, ms(59_000) - FREEZE);
    assert_eq!(replay(&game.record()), Ok(game));
}

#[test]
fn a_side_left_without_moves_loses_at_once() {
    // A 4×4 game of statues (the empty genome moves nowhere) with Black's pawns lifted off the
    // stored board: after White's move Black has nothing to play.
    let statue = Genome::parse("").expect("the empty genome");
    let settings = Settings::new(4, 4, ms(60_000))
        .and_then(|s| s.with_first_move(None))
        .expect("4×4");
    let mut game = set_up(
        settings,
        5,
        &[statue.clone(), statue.clone(), statue.clone(), statue],
        0,
    );
    game.ready(Color::White, at(0)).expect("ready");
    game.ready(Color::Black, at(0)).expect("ready");
    let mut snapshot = serde_json::to_value(&game).expect("snapshot");
    let pieces = snapshot["board"]["pieces"].as_array_mut().expect("pieces");
    pieces.retain(|p| !(p["color"] == "black" && p["pawn"] == true));
    let mut game: Game = serde_json::from_value(snapshot).expect("edited snapshot loads");
    assert_eq!(game.to_move(), Some(Color::White));

    let white_move = game.legal_moves()[0];
    game.play(Color::White, white_move.from, white_move.to, at(1_000))
        .expect("legal");

    assert!(game.position().moves_of_side(Color::Black).is_empty());
    assert_eq!(game.status(), GameStatus::WhiteWon);
    assert_eq!(game.reason(), Some(Reason::NoLegalMoves));
    assert_eq!(game.to_move(), None);
    assert_eq!(game.deadline(), None, "no clock runs after the end");
    let after = game.clone();
    assert!(
        !game.tick(at(1_000_000)),
        "no flag falls once the game is over"
    );
    assert_eq!(game, after);
}
