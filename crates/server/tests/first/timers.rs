//! First-move timers over HTTP, on a server that gives each first move 1.5 s.

use crate::common::Server;
use crate::lichess::{rest_of, types};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

fn short_first_moves(settings: &mut gmo_server::Settings) {
    settings.play.first_move_time = Duration::from_millis(1_500);
}

both_with!(super::short_first_moves;
    a_first_move_not_made_in_time_aborts_the_game,
    blacks_first_move_is_timed_from_whites_and_then_the_clocks_run,
    a_game_with_a_bot_has_no_first_move_timer_and_ends_by_the_flag,
);

async fn a_first_move_not_made_in_time_aborts_the_game(server: Server) {
    let (id, white, black, _) = crate::new_game(&server, json!({})).await;
    crate::set_up(&server, &id, &white, "default", "d1").await;
    let mut stream = server.stream(&id, None).await;
    stream.next().await.expect("the first line");
    let started_at = Instant::now();
    let started = crate::set_up(&server, &id, &black, "default", "d8").await;
    assert!(started["first_move_deadline"].is_string(), "{started}");
    assert_eq!(started["clocks"]["running"], Value::Null);
    let lines = rest_of(&mut stream, Duration::from_secs(5)).await;
    let took = started_at.elapsed();
    assert_eq!(types(&lines), ["joined", "setup", "setup", "start", "end"]);
    let last = &lines[lines.len() - 1]["game"];
    assert_eq!(
        (last["status"].clone(), last["reason"].clone()),
        (json!("aborted"), json!("no_first_move"))
    );
    assert_eq!(last["first_move_deadline"], Value::Null);
    assert_eq!(last["clocks"]["white_ms"], 300_000, "no clock ran");
    assert!(
        took >= Duration::from_millis(1_400) && took < Duration::from_secs(3),
        "{took:?}"
    );
    let late = server
        .post(
            &format!("/api/games/{id}/moves"),
            Some(&white),
            json!({"from": "d2", "to": "d3"}),
        )
        .await;
    assert_eq!(late.status, 409, "{}", late.text);
    let record = server
        .get(&format!("/api/games/{id}/record"), Some(&white))
        .await;
    assert_eq!(record.status, 200, "{}", record.text);
    assert_eq!(record.body["reason"], "no_first_move");
    assert_eq!(record.body["replay"]["events"][0]["type"], "time");
    crate::check_record_replays(&record.body);
}

async fn blacks_first_move_is_timed_from_whites_and_then_the_clocks_run(server: Server) {
    // Both first moves in time: the clocks run, and nothing ends the game early.
    let (id, white, black) = crate::lichess::started(&server, json!({})).await;
    let moved = crate::play(&server, &id, &white, "d2", "d3").await;
    assert!(
        moved["game"]["first_move_deadline"].is_string(),
        "Black's timer runs"
    );
    assert_eq!(moved["game"]["clocks"]["running"], Value::Null);
    let answered = crate::play(&server, &id, &black, "d7", "d6").await;
    assert_eq!(answered["game"]["first_move_deadline"], Value::Null);
    assert_eq!(answered["game"]["clocks"]["running"], "white");
    tokio::time::sleep(Duration::from_millis(2_000)).await;
    let view = server.get(&format!("/api/games/{id}"), None).await;
    assert_eq!(view.body["status"], "in_progress", "{}", view.text);
    // Black's first move, not made: the game of another pair ends aborted after 1.5 s.
    let (other, other_white, _) = crate::lichess::started(&server, json!({})).await;
    crate::play(&server, &other, &other_white, "d2", "d3").await;
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    let view = server.get(&format!("/api/games/{other}"), None).await;
    assert_eq!(
        (view.body["status"].clone(), view.body["reason"].clone()),
        (json!("aborted"), json!("no_first_move")),
        "{}",
        view.text
    );
}

/// Rules §5.4 [changed]: nobody waits on a bot's opponent. A person against a bot spends their
/// own clock from the start (no first-move timer, however short the server's), and a game left
/// alone ends by the flag, not aborted; with the bot as White, the person's first move is not
/// timed either.
async fn a_game_with_a_bot_has_no_first_move_timer_and_ends_by_the_flag(server: Server) {
    let created = server
        .post(
            "/api/games",
            None,
            json!({"black": "bot:random", "clock": {"initial_ms": 2_500}}),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    let id = created.body["id"].as_str().expect("an id").to_owned();
    let white = created.body["seats"]["white"]["token"]
        .as_str()
        .expect("the person's token")
        .to_owned();
    let started = crate::set_up(&server, &id, &white, "default", "d1").await;
    assert_eq!(started["status"], "in_progress", "{started}");
    assert_eq!(started["first_move_deadline"], Value::Null, "{started}");
    assert_eq!(started["clocks"]["running"], "white", "{started}");
    // Past the server's 1.5 s first-move time and past the 2.5 s clock: the flag, not an abort.
    let waited = Instant::now();
    let ended = loop {
        let view = server.get(&format!("/api/games/{id}"), None).await;
        // Generous: on a loaded machine a store write can be retried (CI once missed 6 s).
        if view.body["status"] != "in_progress" || waited.elapsed() > Duration::from_secs(20) {
            break view.body;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(
        (ended["status"].clone(), ended["reason"].clone()),
        (json!("black_won"), json!("time")),
        "{ended}"
    );
    assert_eq!(ended["clocks"]["white_ms"], 0, "{ended}");

    // Greedy, not random: a random first ply may lose the bot's own king and end the game
    // before Black's clock could be seen running (CI met one).
    let bot_white = server
        .post(
            "/api/games",
            None,
            json!({"white": "bot:greedy", "clock": {"initial_ms": 60_000}}),
        )
        .await;
    assert_eq!(bot_white.status, 201, "{}", bot_white.text);
    let other = bot_white.body["id"].as_str().expect("an id").to_owned();
    let black = bot_white.body["seats"]["black"]["token"]
        .as_str()
        .expect("the person's token")
        .to_owned();
    crate::set_up(&server, &other, &black, "default", "d8").await;
    let answered = Instant::now();
    let view = loop {
        let view = server.get(&format!("/api/games/{other}"), None).await;
        // A bot's failed try is taken again after its 2.5 s lease: allow a few on a loaded machine.
        if view.body["moves_played"] == 1 || answered.elapsed() > Duration::from_secs(20) {
            break view.body;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(view["moves_played"], 1, "the bot moved: {view}");
    assert_eq!(view["first_move_deadline"], Value::Null, "{view}");
    assert_eq!(view["clocks"]["running"], "black", "{view}");
    tokio::time::sleep(Duration::from_millis(2_000)).await;
    let later = server.get(&format!("/api/games/{other}"), None).await;
    assert_eq!(later.body["status"], "in_progress", "{}", later.text);
}
