//! Unit tests of the increment (lichess's "3+2") and of draws by agreement: the clocks, freezes and
//! promotions around an increment, offers, answers, declines by moving, records and old snapshots.

use crate::game::{DrawOffer, FREEZE, Game, GameError, GameStatus, Reason, Settings};
use crate::game_tests::{
    at, default_preset, freezing_move, ms, named, quiet_move, set_up, small_preset, sq, started,
};
use crate::record::{Event, replay};
use crate::square::Color;
use crate::view::Viewer;
use gmo_genome::Genome;
use gmo_types::Millis;

/// The default game with `initial` + `increment`, started at `t = 0`, the clock running from the
/// start (no first-move timers).
fn started_plus(initial: Millis, increment: Millis) -> Game {
    let settings = Settings {
        initial_ms: initial,
        first_move_ms: None,
        discovery: false,
        ..Settings::default()
    }
    .with_increment(increment)
    .expect("increment in range");
    let mut game = set_up(settings, 11, &default_preset(), 3);
    game.ready(Color::White, at(0)).expect("white ready");
    game.ready(Color::Black, at(0)).expect("black ready");
    game
}

/// Both sides' time left at `now` ms.
fn clocks(game: &Game, now: i64) -> (Millis, Millis) {
    let clocks = game.view(Viewer::Spectator, at(now)).clocks;
    (clocks.white_ms, clocks.black_ms)
}

#[test]
fn increments_are_checked_and_default_to_zero() {
    assert_eq!(Settings::default().increment_ms, Millis::ZERO);
    let base = Settings::new(8, 8, ms(180_000)).expect("3 minutes");
    assert_eq!(base.increment_ms, Millis::ZERO);
    assert_eq!(
        base.with_increment(ms(2_000)).map(|s| s.increment_ms),
        Ok(ms(2_000))
    );
    assert!(base.with_increment(Settings::MAX_INCREMENT).is_ok());
    for bad in [-1, Settings::MAX_INCREMENT.ms() + 1, i64::MAX] {
        let Err(GameError::Settings(why)) = base.with_increment(ms(bad)) else {
            panic!("increment {bad} was accepted");
        };
        assert!(why.contains("increment must be 0 to 60000 ms"), "{why}");
        assert!(why.contains(&bad.to_string()), "{why}");
    }
    let bad = Settings {
        increment_ms: ms(-5),
        ..Settings::default()
    };
    assert!(matches!(Game::new(bad, 1), Err(GameError::Settings(_))));
}

#[test]
fn each_move_adds_the_increment_to_the_movers_clock() {
    let mut game = started_plus(ms(60_000), ms(2_000));
    assert_eq!(
        game.view(Viewer::Spectator, at(0)).clocks.increment_ms,
        ms(2_000)
    );
    let (from, to) = quiet_move(&game);
    game.play(Color::White, from, to, at(10_000)).expect("move");
    assert_eq!(clocks(&game, 10_000), (ms(52_000), ms(60_000)));
    let (from, to) = quiet_move(&game);
    game.play(Color::Black, from, to, at(25_000)).expect("move");
    assert_eq!(clocks(&game, 25_000), (ms(52_000), ms(47_000)));
    // The deadline follows the time left, increment included.
    assert_eq!(game.deadline(), Some(at(25_000) + ms(52_000)));
    assert_eq!(replay(&game.record()), Ok(game));
}

#[test]
fn a_freeze_takes_its_time_after_the_increment() {
    let mut game = started_plus(ms(300_000), ms(3_000));
    let (from, to) = freezing_move(&game);
    game.play(Color::White, from, to, at(1_000))
        .expect("freezing move");
    assert_eq!(
        clocks(&game, 1_000),
        (ms(299_000 + 3_000) - FREEZE, ms(300_000) + FREEZE)
    );
    assert_eq!(game.frozen_until(at(1_000)), Some(at(1_000) + FREEZE));

    // With 4 s on the clock, a freezing move 0.1 s in leaves 3.9 + 2 − 5 < 0: lost on time …
    let mut game = started_plus(ms(4_000), ms(1_000));
    let (from, to) = freezing_move(&game);
    game.play(Color::White, from, to, at(100)).expect("move");
    assert_eq!(
        (game.status(), game.reason()),
        (GameStatus::BlackWon, Some(Reason::Time))
    );
    // … but an increment that covers the freeze keeps the game going.
    let mut game = started_plus(ms(4_000), ms(2_000));
    game.play(Color::White, from, to, at(100)).expect("move");
    assert_eq!(game.status(), GameStatus::InProgress);
    assert_eq!(clocks(&game, 100).0, ms(4_000 - 100 + 2_000) - FREEZE);
    assert_eq!(replay(&game.record()), Ok(game));
}

#[test]
fn a_promotion_is_no_move_and_earns_no_increment() {
    // Steps onto an own neighbour, leaving on its from square a copy of that neighbour owned by
    // the opponent, and freezes: from a1 onto the a2 pawn it leaves a black pawn due on rank 1.
    let swapper = Genome::parse("AHH HSH HSC SHA HHH HHH HHA SAS").expect("dna");
    let settings = Settings::new(5, 5, ms(60_000))
        .and_then(|s| s.with_increment(ms(1_000)))
        .and_then(|s| s.with_first_move(None))
        .expect("settings");
    let mut white = small_preset();
    white[0] = swapper;
    let mut game = Game::new(settings, 8).expect("settings");
    game.load_preset(Color::White, &white).expect("preset");
    game.load_preset(Color::Black, &small_preset())
        .expect("preset");
    game.toggle_king(Color::White, sq("c1")).expect("king");
    game.toggle_king(Color::Black, sq("c5")).expect("king");
    game.ready(Color::White, at(0)).expect("ready");
    game.ready(Color::Black, at(0)).expect("ready");
    game.play(Color::White, sq("a1"), sq("a2"), at(1_000))
        .expect("the swap");
    assert_eq!(game.promotion_due(), Some(sq("a1")));
    game.promote(Color::Black, &named("queen"), at(6_000))
        .expect("after the freeze");
    let (white_ms, black_ms) = clocks(&game, 6_000);
    assert_eq!(white_ms, ms(59_000 + 1_000) - FREEZE);
    assert_eq!(black_ms, ms(60_000) + FREEZE - ms(5_000), "no increment");
    let (from, to) = quiet_move(&game);
    game.play(Color::Black, from, to, at(7_000))
        .expect("black moves");
    assert_eq!(clocks(&game, 7_000).1, black_ms - ms(1_000) + ms(1_000));
    assert_eq!(replay(&game.record()), Ok(game));
}

#[test]
fn a_draw_is_offered_once_and_agreed_by_the_other_seat() {
    let mut game = started(ms(60_000));
    assert_eq!(game.view(Viewer::Spectator, at(0)).draw_offer, None);
    assert_eq!(
        game.offer_draw(Color::Black, at(1_000)),
        Ok(DrawOffer::Made)
    );
    assert_eq!(game.draw_offer(), Some(Color::Black));
    let json =
        serde_json::to_value(game.view(Viewer::Player(Color::White), at(1_000))).expect("json");
    assert_eq!(json["draw_offer"], "black");
    let pending = game.clone();
    assert_eq!(
        game.offer_draw(Color::Black, at(2_000)),
        Ok(DrawOffer::AlreadyPending)
    );
    assert_eq!(game, pending, "offering twice changes nothing");

    assert_eq!(
        game.offer_draw(Color::White, at(3_000)),
        Ok(DrawOffer::Agreed)
    );
    assert_eq!(
        (game.status(), game.reason()),
        (GameStatus::Draw, Some(Reason::Agreement))
    );
    assert_eq!(game.draw_offer(), None);
    assert_eq!(game.to_move(), None);
    assert_eq!(
        clocks(&game, 9_000),
        (ms(57_000), ms(60_000)),
        "the clocks stopped"
    );
    assert_eq!(
        game.events().to_vec(),
        [
            Event::DrawOffer {
                at_ms: at(1_000),
                color: Color::Black
            },
            Event::DrawAgreed {
                at_ms: at(3_000),
                color: Color::White
            }
        ]
    );
    let json = serde_json::to_value(game.view(Viewer::Spectator, at(3_000))).expect("json");
    assert_eq!(json["reason"], "agreement");
    assert_eq!(json["draw_offer"], serde_json::Value::Null);

    let record = serde_json::to_value(game.record()).expect("record");
    assert_eq!(record["events"][1]["type"], "draw_agreed");
    let record = serde_json::from_value(record).expect("record loads");
    assert_eq!(replay(&record), Ok(game.clone()));
    let over = game.clone();
    assert!(matches!(
        game.offer_draw(Color::Black, at(4_000)),
        Err(GameError::NotInProgress { .. })
    ));
    assert_eq!(game, over);
}

#[test]
fn the_opponents_move_declines_and_the_offerers_move_keeps_the_offer() {
    let mut game = started(ms(60_000));
    game.offer_draw(Color::White, at(100)).expect("offer");
    let (from, to) = quiet_move(&game);
    game.play(Color::White, from, to, at(200))
        .expect("white moves");
    assert_eq!(game.draw_offer(), Some(Color::White), "the offer stays");
    let (from, to) = quiet_move(&game);
    game.play(Color::Black, from, to, at(300))
        .expect("black moves");
    assert_eq!(game.draw_offer(), None, "black's move declined it");

    game.offer_draw(Color::Black, at(400))
        .expect("black offers");
    let (from, to) = quiet_move(&game);
    game.play(Color::White, from, to, at(500))
        .expect("white moves");
    assert_eq!(game.draw_offer(), None);
    assert_eq!(replay(&game.record()), Ok(game));
}

#[test]
fn an_offer_can_be_declined_without_moving() {
    let mut game = started(ms(60_000));
    let before = game.clone();
    assert_eq!(
        game.decline_draw(Color::Black, at(10)),
        Err(GameError::NoDrawOffer(Color::Black))
    );
    assert_eq!(game, before);
    game.offer_draw(Color::White, at(20)).expect("offer");
    let pending = game.clone();
    assert_eq!(
        game.decline_draw(Color::White, at(30)),
        Err(GameError::NoDrawOffer(Color::White)),
        "the offerer has nothing to answer"
    );
    assert_eq!(game, pending);
    game.decline_draw(Color::Black, at(40)).expect("decline");
    assert_eq!(game.draw_offer(), None);
    assert_eq!(game.status(), GameStatus::InProgress);
    assert_eq!(
        game.events().last(),
        Some(&Event::DrawDeclined {
            at_ms: at(40),
            color: Color::Black
        })
    );
    assert_eq!(game.offer_draw(Color::White, at(50)), Ok(DrawOffer::Made));
    assert_eq!(replay(&game.record()), Ok(game));
}

#[test]
fn draws_are_refused_outside_play_and_a_fallen_flag_comes_first() {
    let mut setup = Game::new(Settings::default(), 2).expect("settings");
    let before = setup.clone();
    assert_eq!(
        setup.offer_draw(Color::White, at(0)),
        Err(GameError::NotInProgress {
            action: "offer a draw",
            status: GameStatus::Setup
        })
    );
    assert_eq!(setup, before);

    // An offer during a freeze is fine: it is no move.
    let mut game = started(ms(60_000));
    let (from, to) = freezing_move(&game);
    game.play(Color::White, from, to, at(1_000))
        .expect("freeze");
    assert_eq!(
        game.offer_draw(Color::Black, at(2_000)),
        Ok(DrawOffer::Made)
    );

    // White's clock falls at 60 s; a late acceptance loses on time instead.
    let mut game = started(ms(60_000));
    game.offer_draw(Color::Black, at(100)).expect("offer");
    assert!(matches!(
        game.offer_draw(Color::White, at(70_000)),
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
    let mut game = started(ms(60_000));
    game.offer_draw(Color::White, at(10)).expect("offer");
    game.offer_draw(Color::Black, at(20)).expect("agree");
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
    let mut game = started(ms(60_000));
    let (from, to) = quiet_move(&game);
    game.play(Color::White, from, to, at(1_000)).expect("move");
    let mut snapshot = serde_json::to_value(&game).expect("snapshot");
    let settings = snapshot["settings"].as_object_mut().expect("settings");
    assert!(settings.remove("increment_ms").is_some());
    let fields = snapshot.as_object_mut().expect("snapshot");
    assert!(fields.remove("draw_offer").is_some());
    let old: Game = serde_json::from_value(snapshot).expect("an old snapshot loads");
    assert_eq!(old, game);
    assert_eq!(old.settings().increment_ms, Millis::ZERO);

    let mut record = serde_json::to_value(game.record()).expect("record");
    let settings = record["settings"].as_object_mut().expect("settings");
    assert!(settings.remove("increment_ms").is_some());
    let record = serde_json::from_value(record).expect("an old record loads");
    assert_eq!(replay(&record), Ok(game));
}
