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
