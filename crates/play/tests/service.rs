//! The game service driven through its own API alone, no HTTP: a game played from setup to the
//! end, a flag that falls, a seek paired, a bot that answers. Each case runs on SQLite and on
//! PostgreSQL.

use gmo_engine::{GameStatus, Square, Viewer};
use gmo_play::lobby::{Looked, SeekRequest, Woke};
use gmo_play::{Happened, Missed, NewGameRequest, PlayError, Service, Settings, Subscription};
use gmo_store::scratch::with_scratch_database;
use gmo_types::{Color, ColorWish, GameId, Millis};
use std::future::Future;
use std::time::Duration;

macro_rules! both {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    crate::on_sqlite(super::$name).await
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    crate::on_postgres(super::$name).await
                }
            )*
        }
    };
}

both!(
    a_game_is_played_from_setup_to_the_end,
    a_flag_falls_by_its_timer,
    a_timer_that_loses_to_the_sweep_is_no_failure,
    two_seeks_are_paired_and_each_seeker_gets_its_seat,
    a_bot_answers_a_move,
);

/// A first-move timer short enough to see it run out.
fn short_first_moves(url: &str) -> Settings {
    Settings {
        first_move_time: Duration::from_millis(300),
        ..settings(url)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_a_first_move_not_made_in_time_aborts_the_game() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("gmo.db").display());
    run(
        &short_first_moves(&url),
        a_first_move_not_made_in_time_aborts_the_game,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_first_move_not_made_in_time_aborts_the_game() {
    with_scratch_database("gmo_play_test", |url| async move {
        run(
            &short_first_moves(&url),
            a_first_move_not_made_in_time_aborts_the_game,
        )
        .await;
    })
    .await;
}

/// A first-move timer is kept like a clock: the process that started the game stops, and
/// another process's sweep aborts the game when nobody moved in time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_first_move_timer_outlives_its_process() {
    with_scratch_database("gmo_play_test", |url| async move {
        let first = Service::start(&short_first_moves(&url))
            .await
            .expect("a process");
        let (id, white, black) = new_game(first.service(), None).await;
        start(first.service(), &id, &white, &black).await;
        first.close().await;
        let other = Service::start(&short_first_moves(&url))
            .await
            .expect("another");
        let ended = tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                let seen = other
                    .service()
                    .games
                    .show(&id, None)
                    .await
                    .expect("the game");
                if seen.game.is_over() {
                    break seen;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        })
        .await
        .expect("the other process's sweep ends the game");
        assert_eq!(ended.game.status(), GameStatus::Aborted);
        assert_eq!(ended.game.reason(), Some(gmo_engine::Reason::NoFirstMove));
        other.close().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_a_bot_that_keeps_failing_ends_its_game() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("gmo.db").display());
    a_bot_that_keeps_failing_ends_its_game(&url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_bot_that_keeps_failing_ends_its_game() {
    with_scratch_database("gmo_play_test", |url| async move {
        a_bot_that_keeps_failing_ends_its_game(&url).await;
    })
    .await;
}

/// A bot whose turn keeps failing — here its spec, stored by an older version, cannot be read
/// (`search:320957358956892230000ms`, what `bot:search:320957358956892230s` was once stored as)
/// — is tried a bounded number of times, then its game is aborted, reason `bot_failed`, the
/// record replaying to the same end; it is not retried for ever.
async fn a_bot_that_keeps_failing_ends_its_game(url: &str) {
    let first = Service::start(&settings(url)).await.expect("a process");
    let play = first.service();
    let request = NewGameRequest {
        black: Some("bot:random".into()),
        ..NewGameRequest::default()
    };
    let created = play.games.create(request).await.expect("a game");
    let (id, white) = (created.id, created.white_token.expect("White's token"));
    let genomes = play
        .library
        .preset_genomes("default")
        .await
        .expect("preset");
    play.games
        .load_preset(&id, &white, &genomes)
        .await
        .expect("preset");
    play.games
        .toggle_king(&id, &white, square("d1"))
        .await
        .expect("king");
    play.games.ready(&id, &white).await.expect("ready");
    play.store()
        .set_black_bot(&id, "search:320957358956892230000ms")
        .await
        .expect("an unreadable spec stored");
    first.close().await;
    // A process that reads the game afresh.
    let other = Service::start(&settings(url)).await.expect("another");
    let play = other.service();
    play.games
        .play(&id, &white, square("d2"), square("d3"))
        .await
        .expect("1.d3");
    let tries = u64::from(gmo_play::MAX_BOT_TRIES);
    let ended = tokio::time::timeout(Duration::from_secs(5 * tries + 10), async {
        loop {
            let seen = play.games.show(&id, None).await.expect("the game");
            if seen.game.is_over() {
                break seen;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await
    .expect("the failing bot's game ends");
    assert_eq!(ended.game.status(), GameStatus::Aborted);
    assert_eq!(ended.game.reason(), Some(gmo_engine::Reason::BotFailed));
    assert_eq!(ended.game.moves_played(), 1, "the bot never moved");
    let last = ended.game.events().last().expect("the end");
    assert!(
        matches!(
            last,
            gmo_engine::Event::BotFailed {
                color: Color::Black,
                ..
            }
        ),
        "{last:?}"
    );
    let replayed = gmo_engine::replay(&ended.game.record()).expect("the record replays");
    assert_eq!(replayed.reason(), Some(gmo_engine::Reason::BotFailed));
    other.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_process_whose_listener_was_cut_off_catches_up() {
    with_scratch_database("gmo_play_test", |url| async move {
        a_process_whose_listener_was_cut_off_catches_up(&url).await;
    })
    .await;
}

fn settings(url: &str) -> Settings {
    Settings {
        database_url: url.to_owned(),
        sweep_interval: Duration::from_millis(250),
        ..Settings::default()
    }
}

async fn on_sqlite<F, Fut>(test: F)
where
    F: FnOnce(Service) -> Fut,
    Fut: Future<Output = ()>,
{
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("gmo.db").display());
    run(&settings(&url), test).await;
}

async fn on_postgres<F, Fut>(test: F)
where
    F: FnOnce(Service) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send,
{
    with_scratch_database("gmo_play_test", |url| async move {
        run(&settings(&url), test).await;
    })
    .await;
}

async fn run<F, Fut>(settings: &Settings, test: F)
where
    F: FnOnce(Service) -> Fut,
    Fut: Future<Output = ()>,
{
    let running = Service::start(settings).await.expect("the service starts");
    test(running.service().clone()).await;
    running.close().await;
}

fn square(name: &str) -> Square {
    name.parse().expect("a square")
}

/// The next update's list of what happened (news included), within a few seconds.
async fn next(updates: &mut Subscription) -> Vec<Happened> {
    let update = tokio::time::timeout(Duration::from_secs(10), updates.recv())
        .await
        .expect("an update in time")
        .expect("an update");
    update.happened.clone()
}

/// Kinds of what happened, without the ply views.
fn kinds(happened: &[Happened]) -> Vec<&'static str> {
    happened
        .iter()
        .map(|happened| match happened {
            Happened::SetUp => "set_up",
            Happened::Started => "started",
            Happened::Moved(_) => "moved",
            Happened::Promoted(_) => "promoted",
            Happened::Froze => "froze",
            Happened::DrawOffered => "draw_offered",
            Happened::DrawDeclined => "draw_declined",
            Happened::DrawAgreed => "draw_agreed",
            Happened::Ended => "ended",
            Happened::Joined(_) => "joined",
            Happened::RematchAsked(_) => "rematch_asked",
            Happened::RematchStarted(_) => "rematch_started",
        })
        .collect()
}

/// A new game between two people → its id and the seats' tokens.
async fn new_game(play: &Service, clock: Option<Millis>) -> (GameId, String, String) {
    let request = NewGameRequest {
        clock: clock.map(|initial| (initial, None)),
        ..NewGameRequest::default()
    };
    let created = play.games.create(request).await.expect("a game");
    let token = |token: Option<String>| token.expect("a person's seat has a token");
    (
        created.id,
        token(created.white_token),
        token(created.black_token),
    )
}

/// Both sides make their first move (d2-d3, d7-d6): then the clocks run (rules §5.4).
async fn first_moves(play: &Service, id: &GameId, white: &str, black: &str) {
    for (token, from, to) in [(white, "d2", "d3"), (black, "d7", "d6")] {
        play.games
            .play(id, token, square(from), square(to))
            .await
            .expect("a first move");
    }
}

/// Both seats load the default preset, mark their king and declare ready.
async fn start(play: &Service, id: &GameId, white: &str, black: &str) {
    let genomes = play
        .library
        .preset_genomes("default")
        .await
        .expect("the default preset");
    for (token, king) in [(white, "d1"), (black, "d8")] {
        let games = &play.games;
        games
            .load_preset(id, token, &genomes)
            .await
            .expect("preset");
        games
            .toggle_king(id, token, square(king))
            .await
            .expect("king");
        games.ready(id, token).await.expect("ready");
    }
}

async fn a_game_is_played_from_setup_to_the_end(play: Service) {
    let (id, white, black) = new_game(&play, None).await;
    let mut watch = play
        .games
        .watch(&id, None)
        .await
        .expect("a spectator watches");
    assert_eq!(watch.seen.viewer, Viewer::Spectator);
    start(&play, &id, &white, &black).await;
    let mut seen = Vec::new();
    while !seen.contains(&"started") {
        seen.extend(kinds(&next(&mut watch.updates).await));
    }
    let setup = seen.iter().filter(|kind| **kind == "set_up").count();
    assert_eq!(setup, 5, "two presets, two kings, White's ready: {seen:?}");
    let moved = play
        .games
        .play(&id, &white, square("d2"), square("d3"))
        .await
        .expect("1.d3");
    assert_eq!(kinds(&moved.happened), ["moved"]);
    assert!(moved.ply_view().is_some(), "the mover sees its ply");
    let refused = play
        .games
        .play(&id, &white, square("e2"), square("e3"))
        .await
        .expect_err("not White's turn");
    assert!(matches!(refused, PlayError::Game(_)), "{refused:?}");
    let resigned = play.games.resign(&id, &black).await.expect("Black resigns");
    assert_eq!(kinds(&resigned.happened), ["ended"]);
    assert_eq!(resigned.game.status(), GameStatus::WhiteWon);
    // The spectator's stream saw the same, in order (seat joins are news in between).
    let mut rest = Vec::new();
    while !rest.contains(&"ended") {
        rest.extend(kinds(&next(&mut watch.updates).await));
    }
    rest.retain(|kind| *kind != "joined");
    assert_eq!(rest, ["moved", "ended"]);
    let record = play
        .games
        .finished(&id, None)
        .await
        .expect("the record opens");
    assert_eq!(record.game.events().len(), 2, "a move and a resignation");
}

async fn a_flag_falls_by_its_timer(play: Service) {
    let (id, white, black) = new_game(&play, Some(Millis::from_ms(400))).await;
    start(&play, &id, &white, &black).await;
    first_moves(&play, &id, &white, &black).await;
    let mut watch = play.games.watch(&id, None).await.expect("a watch");
    // White does not move again: its flag falls, found by the game's timer (or the sweep).
    let ended = loop {
        let happened = next(&mut watch.updates).await;
        if happened.contains(&Happened::Ended) {
            break happened;
        }
    };
    assert_eq!(kinds(&ended), ["ended"]);
    let seen = play.games.show(&id, None).await.expect("the game");
    assert_eq!(seen.game.status(), GameStatus::BlackWon);
    assert!(
        play.games.timers().is_empty(),
        "the ended game has no timer"
    );
}

async fn a_first_move_not_made_in_time_aborts_the_game(play: Service) {
    let (id, white, black) = new_game(&play, None).await;
    let mut watch = play.games.watch(&id, None).await.expect("a watch");
    start(&play, &id, &white, &black).await;
    let seen = play.games.show(&id, None).await.expect("the game");
    let deadline = seen
        .game
        .first_move_deadline()
        .expect("White's first-move timer runs");
    assert!(deadline > gmo_play::now(), "it runs out later");
    // The service gives each first move 300 ms here (`short_first_moves`): nobody moves.
    let ended = loop {
        let happened = next(&mut watch.updates).await;
        if happened.contains(&Happened::Ended) {
            break happened;
        }
    };
    assert_eq!(kinds(&ended), ["ended"]);
    let seen = play.games.show(&id, None).await.expect("the game");
    assert_eq!(seen.game.status(), GameStatus::Aborted);
    assert_eq!(seen.game.reason(), Some(gmo_engine::Reason::NoFirstMove));
}

/// The timer loaded the game just before its clock fell; the sweep ends it first; the timer's
/// commit then finds a newer version. That is the game ended correctly, not an error.
async fn a_timer_that_loses_to_the_sweep_is_no_failure(play: Service) {
    let (id, white, black) = new_game(&play, Some(Millis::from_ms(300))).await;
    start(&play, &id, &white, &black).await;
    first_moves(&play, &id, &white, &black).await;
    // Only the test's sweep and its late timer may end it.
    play.games.timers().disarm(&id);
    let loaded = play.games.load(&id).await.expect("the game");
    tokio::time::sleep(Duration::from_millis(400)).await;
    let swept = play.games.sweep_once().await.expect("a sweep");
    // The service's own sweep may have run first, or be ending it at this moment (this sweep
    // then passes over the locked row): its commit lands within moments.
    let mut ended = play.games.load(&id).await.expect("the game");
    for _ in 0..50 {
        if ended.state.is_over() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        ended = play.games.load(&id).await.expect("the game");
    }
    assert!(swept <= 1 && ended.state.is_over(), "swept {swept}");
    let late = play.games.end_on_time(&id, &loaded).await;
    assert!(late.is_ok(), "the timer's late attempt: {late:?}");
    let after = play.games.load(&id).await.expect("the game");
    assert_eq!(after.status, GameStatus::BlackWon);
    assert_eq!(after.version, loaded.version + 1, "ended once");
}

async fn two_seeks_are_paired_and_each_seeker_gets_its_seat(play: Service) {
    let request = |wish| SeekRequest {
        width: None,
        height: None,
        initial: Millis::from_ms(180_000),
        increment: Some(Millis::from_ms(2_000)),
        wish,
        rated: false,
    };
    let lobby = &play.lobby;
    let (first, first_token) = lobby
        .open("client-a", request(ColorWish::Black), None)
        .await
        .expect("a seek");
    let follow = lobby
        .follow(&first, &first_token)
        .await
        .expect("a follower");
    assert_eq!(lobby.list().await.expect("the lobby").len(), 1);
    let (_, second_token) = lobby
        .open("client-b", request(ColorWish::Random), None)
        .await
        .expect("a matching seek, paired at once");
    let Looked::Paired { game, seat, token } = follow.look(Woke::Bell).await.expect("a look")
    else {
        panic!("the first seek was not paired");
    };
    assert_eq!(seat, Color::Black, "as wished");
    assert!(lobby.list().await.expect("the lobby").is_empty());
    let seen = play
        .games
        .show(&game, Some(&token))
        .await
        .expect("its seat");
    assert_eq!(seen.viewer, Viewer::Player(Color::Black));
    assert_eq!(seen.game.status(), GameStatus::Setup);
    assert_ne!(token, second_token);
    drop(follow);
    assert!(lobby.bell().is_empty(), "no follower left behind");
}

async fn a_bot_answers_a_move(play: Service) {
    let request = NewGameRequest {
        black: Some("bot:random".into()),
        ..NewGameRequest::default()
    };
    let created = play
        .games
        .create(request)
        .await
        .expect("a game against a bot");
    let (id, white) = (created.id, created.white_token.expect("White's token"));
    assert!(created.black_token.is_none(), "a bot's seat has no token");
    let genomes = play
        .library
        .preset_genomes("default")
        .await
        .expect("preset");
    play.games
        .load_preset(&id, &white, &genomes)
        .await
        .expect("preset");
    play.games
        .toggle_king(&id, &white, square("d1"))
        .await
        .expect("king");
    let ready = play.games.ready(&id, &white).await.expect("ready");
    assert_eq!(kinds(&ready.happened), ["started"]);
    let mut watch = play.games.watch(&id, None).await.expect("a watch");
    play.games
        .play(&id, &white, square("d2"), square("d3"))
        .await
        .expect("1.d3");
    let answered = loop {
        match tokio::time::timeout(Duration::from_secs(10), watch.updates.recv()).await {
            Ok(Ok(update)) if update.game.moves_played() == 2 => break update,
            Ok(Ok(_)) => {}
            Ok(Err(Missed::Lagged(_))) => {}
            other => panic!("the bot did not answer: {other:?}"),
        }
    };
    // A random bot's move may freeze the game, or take White's king (there is no check).
    let happened = kinds(&answered.happened);
    assert_eq!(happened.first(), Some(&"moved"), "{happened:?}");
    assert!(
        happened[1..]
            .iter()
            .all(|kind| ["froze", "ended"].contains(kind)),
        "{happened:?}"
    );
    let last = answered.game.events().last().expect("the bot's move");
    assert!(matches!(last, gmo_engine::Event::Move { .. }), "{last:?}");
}

/// Another process's change reaches this process's streams even when it was announced while
/// this process's listener was cut off (PostgreSQL was restarted, say): the lost connection is
/// noticed and the watched games are shown as they are now.
async fn a_process_whose_listener_was_cut_off_catches_up(url: &str) {
    let here = Service::start(&settings(url))
        .await
        .expect("a process starts");
    let there = Service::start(&settings(url))
        .await
        .expect("another process starts");
    let (one, two) = (here.service(), there.service());
    let (id, white, black) = new_game(one, None).await;
    start(one, &id, &white, &black).await;
    let mut watch = two.games.watch(&id, None).await.expect("a watch");
    let before = watch.seen.version;
    let dropped = gmo_store::scratch::drop_connections(url).await;
    assert!(dropped > 0, "both processes had connections");
    // The move is committed as soon as the pool has a connection again; its announcement may be
    // sent while the other process's listener is still away.
    let mut moved = None;
    for _ in 0..50 {
        match one
            .games
            .play(&id, &white, square("d2"), square("d3"))
            .await
        {
            Ok(changed) => {
                moved = Some(changed.version);
                break;
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    let moved = moved.expect("the move commits once the database answers again");
    assert!(moved > before);
    let shown = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match watch.updates.recv().await {
                Ok(update) if update.version >= moved => break update,
                Ok(_) | Err(Missed::Lagged(_)) => {}
                Err(Missed::Closed) => panic!("the stream closed"),
            }
        }
    })
    .await
    .expect("the move reaches the other process's stream");
    assert_eq!(shown.game.moves_played(), 1);
    here.close().await;
    there.close().await;
}
