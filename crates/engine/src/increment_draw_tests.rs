//! Unit tests of the increment (lichess's "3+2") and of draws by agreement: the clocks, freezes and
//! promotions around an increment, offers, answers, declines by moving, records and old snapshots.

use crate::game::{DrawOffer, FREEZE_MS, Game, GameError, GameStatus, Reason, Settings};
use crate::game_tests::{
    default_preset, freezing_move, named, quiet_move, set_up, small_preset, sq, started,
};
use crate::record::{Event, replay};
use crate::square::Color;
use crate::view::Viewer;
use gmo_genome::Genome;

/// The default game with `initial_ms` + `increment_ms`, started at `t = 0`.
fn started_plus(initial_ms: i64, increment_ms: i64) -> Game {
    let settings = Settings {
        initial_ms,
        ..Settings::default()
    }
    .with_increment(increment_ms)
    .expect("increment in range");
    let mut game = set_up(settings, 11, &default_preset(), 3);
    game.ready(Color::White, 0).expect("white ready");
    game.ready(Color::Black, 0).expect("black ready");
    game
}

fn clocks(game: &Game, now: i64) -> (i64, i64) {
    let clocks = game.view(Viewer::Spectator, now).clocks;
    (clocks.white_ms, clocks.black_ms)
}

#[test]
fn increments_are_checked_and_default_to_zero() {
    assert_eq!(Settings::default().increment_ms, 0);
    let base = Settings::new(8, 8, 180_000).expect("3 minutes");
    assert_eq!(base.increment_ms, 0);
    assert_eq!(
        base.with_increment(2_000).map(|s| s.increment_ms),
        Ok(2_000)
    );
    assert!(base.with_increment(Settings::MAX_INCREMENT_MS).is_ok());
    for bad in [-1, Settings::MAX_INCREMENT_MS + 1, i64::MAX] {
        let Err(GameError::Settings(why)) = base.with_increment(bad) else {
            panic!("increment {bad} was accepted");
        };
        assert!(why.contains("increment must be 0 to 60000 ms"), "{why}");
        assert!(why.contains(&bad.to_string()), "{why}");
    }
    let bad = Settings {
        increment_ms: -5,
        ..Settings::default()
    };
    assert!(matches!(Game::new(bad, 1), Err(GameError::Settings(_))));
}

#[test]
fn each_move_adds_the_increment_to_the_movers_clock() {
    let mut game = started_plus(60_000, 2_000);
    assert_eq!(game.view(Viewer::Spectator, 0).clocks.increment_ms, 2_000);
    let (from, to) = quiet_move(&game);
    game.play(Color::White, from, to, 10_000).expect("move");
    assert_eq!(clocks(&game, 10_000), (52_000, 60_000));
    let (from, to) = quiet_move(&game);
    game.play(Color::Black, from, to, 25_000).expect("move");
    assert_eq!(clocks(&game, 25_000), (52_000, 47_000));
    // The deadline follows the time left, increment included.
    assert_eq!(game.deadline_ms(), Some(25_000 + 52_000));
    assert_eq!(replay(&game.record()), Ok(game));
}

#[test]
fn a_freeze_takes_its_time_after_the_increment() {
    let mut game = started_plus(300_000, 3_000);
    let (from, to) = freezing_move(&game);
    game.play(Color::White, from, to, 1_000)
        .expect("freezing move");
    assert_eq!(
        clocks(&game, 1_000),
        (299_000 + 3_000 - FREEZE_MS, 300_000 + FREEZE_MS)
    );
    assert_eq!(game.frozen_until(1_000), Some(1_000 + FREEZE_MS));

    // With 4 s on the clock, a freezing move 0.1 s in leaves 3.9 + 2 − 5 < 0: lost on time …
    let mut game = started_plus(4_000, 1_000);
    let (from, to) = freezing_move(&game);
    game.play(Color::White, from, to, 100).expect("move");
    assert_eq!(
        (game.status(), game.reason()),
        (GameStatus::BlackWon, Some(Reason::Time))
    );
    // … but an increment that covers the freeze keeps the game going.
    let mut game = started_plus(4_000, 2_000);
    game.play(Color::White, from, to, 100).expect("move");
    assert_eq!(game.status(), GameStatus::InProgress);
    assert_eq!(clocks(&game, 100).0, 4_000 - 100 + 2_000 - FREEZE_MS);
    assert_eq!(replay(&game.record()), Ok(game));
}

#[test]
fn a_promotion_is_no_move_and_earns_no_increment() {
    // Steps onto an own neighbour, leaving on its from square a copy of that neighbour owned by
    // the opponent, and freezes: from a1 onto the a2 pawn it leaves a black pawn due on rank 1.
    let swapper = Genome::parse("AHH HSH HSC SHA HHH HHH HHA SAS").expect("dna");
    let settings = Settings::new(5, 5, 60_000)
        .and_then(|s| s.with_increment(1_000))
        .expect("settings");
    let mut white = small_preset();
    white[0] = swapper;
    let mut game = Game::new(settings, 8).expect("settings");
    game.load_preset(Color::White, &white).expect("preset");
    game.load_preset(Color::Black, &small_preset())
        .expect("preset");
    game.toggle_king(Color::White, sq("c1")).expect("king");
    game.toggle_king(Color::Black, sq("c5")).expect("king");
    game.ready(Color::White, 0).expect("ready");
    game.ready(Color::Black, 0).expect("ready");
    game.play(Color::White, sq("a1"), sq("a2"), 1_000)
        .expect("the swap");
    assert_eq!(game.promotion_due(), Some(sq("a1")));
    game.promote(Color::Black, &named("queen"), 6_000)
        .expect("after the freeze");
    let (white_ms, black_ms) = clocks(&game, 6_000);
    assert_eq!(white_ms, 59_000 + 1_000 - FREEZE_MS);
    assert_eq!(black_ms, 60_000 + FREEZE_MS - 5_000, "no increment");
    let (from, to) = quiet_move(&game);
    game.play(Color::Black, from, to, 7_000)
        .expect("black moves");
    assert_eq!(clocks(&game, 7_000).1, black_ms - 1_000 + 1_000);
    assert_eq!(replay(&game.record()), Ok(game));
}

#[test]
fn a_draw_is_offered_once_and_agreed_by_the_other_seat() {
    let mut game = started(60_000);
    assert_eq!(game.view(Viewer::Spectator, 0).draw_offer, None);
    assert_eq!(game.offer_draw(Color::Black, 1_000), Ok(DrawOffer::Made));
    assert_eq!(game.draw_offer(), Some(Color::Black));
    let json = serde_json::to_value(game.view(Viewer::Player(Color::White), 1_000)).expect("json");
    assert_eq!(json["draw_offer"], "black");
    let pending = game.clone();
    assert_eq!(
        game.offer_draw(Color::Black, 2_000),
        Ok(DrawOffer::AlreadyPending)
    );
    assert_eq!(game, pending, "offering twice changes nothing");

    assert_eq!(game.offer_draw(Color::White, 3_000), Ok(DrawOffer::Agreed));
    assert_eq!(
        (game.status(), game.reason()),
        (GameStatus::Draw, Some(Reason::Agreement))
    );
    assert_eq!(game.draw_offer(), None);
    assert_eq!(game.to_move(), None);
    assert_eq!(clocks(&game, 9_000), (57_000, 60_000), "the clocks stopped");
    assert_eq!(
        game.events(),
        [
            Event::DrawOffer {
                at_ms: 1_000,
                color: Color::Black
            },
            Event::DrawAgreed {
                at_ms: 3_000,
                color: Color::White
            }
        ]
    );
    let json = serde_json::to_value(game.view(Viewer::Spectator, 3_000)).expect("json");
    assert_eq!(json["reason"], "agreement");
    assert_eq!(json["draw_offer"], serde_json::Value::Null);

    let record = serde_json::to_value(game.record()).expect("record");
    assert_eq!(record["events"][1]["type"], "draw_agreed");
    let record = serde_json::from_value(record).expect("record loads");
    assert_eq!(replay(&record), Ok(game.clone()));
    let over = game.clone();
    assert!(matches!(
        game.offer_draw(Color::Black, 4_000),
        Err(GameError::NotInProgress { .. })
    ));
    assert_eq!(game, over);
}

#[test]
fn the_opponents_move_declines_and_the_offerers_move_keeps_the_offer() {
    let mut game = started(60_000);
    game.offer_draw(Color::White, 100).expect("offer");
    let (from, to) = quiet_move(&game);
    game.play(Color::White, from, to, 200).expect("white moves");
    assert_eq!(game.draw_offer(), Some(Color::White), "the offer stays");
    let (from, to) = quiet_move(&game);
    game.play(Color::Black, from, to, 300).expect("black moves");
    assert_eq!(game.draw_offer(), None, "black's move declined it");

    game.offer_draw(Color::Black, 400).expect("black offers");
    let (from, to) = quiet_move(&game);
    game.play(Color::White, from, to, 500).expect("white moves");
    assert_eq!(game.draw_offer(), None);
    assert_eq!(replay(&game.record()), Ok(game));
}

#[test]
fn an_offer_can_be_declined_without_moving() {
    let mut game = started(60_000);
    let before = game.clone();
    assert_eq!(
        game.decline_draw(Color::Black, 10),
        Err(GameError::NoDrawOffer(Color::Black))
    );
    assert_eq!(game, before);
    game.offer_draw(Color::White, 20).expect("offer");
    let pending = game.clone();
    assert_eq!(
        game.decline_draw(Color::White, 30),
        Err(GameError::NoDrawOffer(Color::White)),
        "the offerer has nothing to answer"
    );
    assert_eq!(game, pending);
    game.decline_draw(Color::Black, 40).expect("decline");
    assert_eq!(game.draw_offer(), None);
    assert_eq!(game.status(), GameStatus::InProgress);
    assert_eq!(
        game.events().last(),
        Some(&Event::DrawDeclined {
            at_ms: 40,
            color: Color::Black
        })
    );
    assert_eq!(game.offer_draw(Color::White, 50), Ok(DrawOffer::Made));
    assert_eq!(replay(&game.record()), Ok(game));
}

#[test]
fn draws_are_refused_outside_play_and_a_fallen_flag_comes_first() {
    let mut setup = Game::new(Settings::default(), 2).expect("settings");
    let before = setup.clone();
    assert_eq!(
        setup.offer_draw(Color::White, 0),
        Err(GameError::NotInProgress {
            action: "offer a draw",
            status: GameStatus::Setup
        })
    );
    assert_eq!(setup, before);

    // An offer during a freeze is fine: it is no move.
    let mut game = started(60_000);
    let (from, to) = freezing_move(&game);
    game.play(Color::White, from, to, 1_000).expect("freeze");
    assert_eq!(game.offer_draw(Color::Black, 2_000), Ok(DrawOffer::Made));

    // White's clock falls at 60 s; a late acceptance loses on time instead.
    let mut game = started(60_000);
    game.offer_draw(Color::Black, 100).expect("offer");
    assert!(matches!(
        game.offer_draw(Color::White, 70_000),
        Err(GameError::NotInProgress { .. })
    ));
    assert_eq!(
        (game.status(), game.reason()),
        (GameStatus::BlackWon, Some(Reason::Time))
    );
    assert_eq!(game.draw_offer(), None);
}

#[test]
fn a_tampered_draw_does_not_replay() {
    let mut game = started(60_000);
    game.offer_draw(Color::White, 10).expect("offer");
    game.offer_draw(Color::Black, 20).expect("agree");
    let mut record = game.record();
    // Without the offer, the acceptance would be an offer: it does not replay.
    record.events.remove(0);
    assert!(matches!(
        replay(&record),
        Err(crate::ReplayError::Event { index: 0, .. })
    ));
}

#[test]
fn snapshots_and_records_stored_before_increments_and_offers_still_load() {
    let mut game = started(60_000);
    let (from, to) = quiet_move(&game);
    game.play(Color::White, from, to, 1_000).expect("move");
    let mut snapshot = serde_json::to_value(&game).expect("snapshot");
    let settings = snapshot["settings"].as_object_mut().expect("settings");
    assert!(settings.remove("increment_ms").is_some());
    let fields = snapshot.as_object_mut().expect("snapshot");
    assert!(fields.remove("draw_offer").is_some());
    let old: Game = serde_json::from_value(snapshot).expect("an old snapshot loads");
    assert_eq!(old, game);
    assert_eq!(old.settings().increment_ms, 0);

    let mut record = serde_json::to_value(game.record()).expect("record");
    let settings = record["settings"].as_object_mut().expect("settings");
    assert!(settings.remove("increment_ms").is_some());
    let record = serde_json::from_value(record).expect("an old record loads");
    assert_eq!(replay(&record), Ok(game));
}
