//! Unit tests of the first-move timers (rules §5.4, as on lichess): the clocks start once both
//! sides have moved; a side that lets its first-move timer run out aborts the game.

use crate::GameSnapshot;
use crate::game::{FIRST_MOVE, Game, GameError, GameStatus, Reason, Settings};
use crate::game_tests::{at, default_preset, ms, set_up, sq};
use crate::record::{Event, replay};
use crate::square::Color;
use crate::view::Viewer;

/// The default game (5 minutes a side, the default first-move time), started at `t = 0`.
fn started() -> Game {
    let mut game = set_up(Settings::default(), 11, &default_preset(), 3);
    game.ready(Color::White, at(0)).expect("white ready");
    game.ready(Color::Black, at(0)).expect("black ready");
    game
}

#[test]
fn new_games_time_each_first_move_and_then_run_the_clocks() {
    assert_eq!(Settings::default().first_move_ms, Some(FIRST_MOVE));
    assert_eq!(FIRST_MOVE, ms(30_000));
    let mut game = started();
    let view = game.view(Viewer::Spectator, at(10_000));
    assert_eq!(
        view.first_move_deadline,
        Some(at(30_000)),
        "White's first move"
    );
    assert_eq!(
        view.clocks.running, None,
        "no clock runs during the first moves"
    );
    assert_eq!(view.clocks.white_ms, ms(300_000));
    assert_eq!(game.deadline(), Some(at(30_000)));
    game.play(Color::White, sq("d2"), sq("d3"), at(10_000))
        .expect("White's first move");
    assert_eq!(game.first_move_deadline(), Some(at(40_000)), "Black's");
    assert_eq!(game.clock().running(), None);
    game.play(Color::Black, sq("d7"), sq("d6"), at(25_000))
        .expect("Black's first move");
    assert_eq!(game.first_move_deadline(), None);
    assert_eq!(game.clock().running(), Some(Color::White));
    let view = game.view(Viewer::Spectator, at(27_000));
    assert_eq!(
        view.clocks.white_ms,
        ms(298_000),
        "White's clock runs from Black's move"
    );
    assert_eq!(
        view.clocks.black_ms,
        ms(300_000),
        "the first moves cost no time"
    );
    assert_eq!(game.deadline(), Some(at(325_000)));
}

#[test]
fn a_first_move_not_made_in_time_aborts_the_game() {
    let mut game = started();
    assert!(!game.tick(at(29_999)), "not yet");
    let before = game.clone();
    let refused = game.play(Color::White, sq("d2"), sq("d3"), at(30_000));
    assert_eq!(
        refused,
        Err(GameError::NotInProgress {
            action: "move",
            status: GameStatus::Aborted
        })
    );
    assert_ne!(game, before, "the timer ran out on the way");
    assert_eq!(game.reason(), Some(Reason::NoFirstMove));
    assert_eq!(
        game.events().last(),
        Some(&Event::Time { at_ms: at(30_000) })
    );
    assert_eq!(game.first_move_deadline(), None);
    assert_eq!(game.deadline(), None);
    assert_eq!(replay(&game.record()), Ok(game.clone()));
    let json = serde_json::to_value(game.view(Viewer::Spectator, at(31_000))).expect("json");
    assert_eq!(
        (json["status"].clone(), json["reason"].clone()),
        ("aborted".into(), "no_first_move".into())
    );
}

#[test]
fn blacks_first_move_is_timed_from_whites() {
    let mut game = started();
    game.play(Color::White, sq("d2"), sq("d3"), at(5_000))
        .expect("White's first move");
    assert!(!game.tick(at(34_999)));
    assert!(game.tick(at(35_000)), "Black's timer ran out");
    assert_eq!(game.status(), GameStatus::Aborted);
    assert_eq!(game.reason(), Some(Reason::NoFirstMove));
    assert_eq!(replay(&game.record()), Ok(game));
}

#[test]
fn first_move_timers_survive_a_snapshot_and_games_stored_before_run_the_clock() {
    let mut game = started();
    game.play(Color::White, sq("d2"), sq("d3"), at(5_000))
        .expect("White's first move");
    let stored = serde_json::to_value(&game).expect("a snapshot");
    let back: Game = serde_json::from_value(stored.clone()).expect("it loads");
    assert_eq!(back.first_move_deadline(), Some(at(35_000)));
    assert_eq!(back, game);
    // A game stored before first-move timers existed: no setting, no timer, its clock runs.
    let mut old = stored;
    old["settings"]
        .as_object_mut()
        .expect("settings")
        .remove("first_move_ms");
    old.as_object_mut()
        .expect("snapshot")
        .remove("first_move_until");
    let snapshot: GameSnapshot = serde_json::from_value(old).expect("an old snapshot");
    assert_eq!(snapshot.settings.first_move_ms, None);
    let old: Game = Game::try_from(snapshot).expect("it loads");
    assert_eq!(old.first_move_deadline(), None);
}

#[test]
fn the_first_move_time_is_checked() {
    let base = Settings::default();
    assert!(base.with_first_move(Some(ms(0))).is_err());
    assert!(base.with_first_move(Some(ms(3_600_001))).is_err());
    assert!(base.with_first_move(Some(ms(1))).is_ok());
    assert_eq!(
        base.with_first_move(None).map(|s| s.first_move_ms),
        Ok(None)
    );
}

#[test]
fn a_side_whose_opponent_left_claims_the_victory_and_the_record_replays_it() {
    let mut game = started();
    game.play(Color::White, sq("d2"), sq("d3"), at(1_000))
        .expect("White's first move");
    game.play(Color::Black, sq("d7"), sq("d6"), at(2_000))
        .expect("Black's first move");
    game.claim_victory(Color::Black, at(70_000))
        .expect("Black claims: White has left");
    assert_eq!(game.status(), GameStatus::BlackWon);
    assert_eq!(game.reason(), Some(Reason::Abandoned));
    assert_eq!(
        game.events().last(),
        Some(&Event::Claim {
            at_ms: at(70_000),
            color: Color::Black
        })
    );
    assert_eq!(replay(&game.record()), Ok(game.clone()));
    let again = game.claim_victory(Color::White, at(71_000));
    assert!(
        matches!(again, Err(GameError::NotInProgress { .. })),
        "{again:?}"
    );
}
