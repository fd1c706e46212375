//! Finding 6: live games with a bot seat are capped per deployment (counted in the database, so
//! across processes), a game between bots has a capped clock, and its creator may stop it.

use super::eventually_async;
use crate::common::Server;
use crate::{check_record_replays, new_game};
use serde_json::{Value, json};
use std::time::Duration;

both!(
    live_bot_games_are_capped,
    a_game_between_bots_has_a_capped_clock,
    the_creator_stops_a_game_between_bots,
);

/// The default cap on live games with a bot seat.
fn cap() -> usize {
    gmo_server::Settings::default().play.max_bot_games as usize
}

/// A game against a bot, in setup (the person has not set up yet) → the creation's answer.
async fn against_a_bot(server: &Server) -> crate::common::Answer {
    server
        .post("/api/games", None, json!({"black": "bot:random"}))
        .await
}

fn check_full(answer: &crate::common::Answer) {
    assert_eq!(answer.status, 503, "{}", answer.text);
    assert_eq!(answer.body["error"]["code"], "unavailable");
    let message = answer.body["error"]["message"].as_str().expect("a message");
    assert!(message.contains(&cap().to_string()), "{message}");
}

async fn live_bot_games_are_capped(server: Server) {
    let mut whites = Vec::new();
    for _ in 0..cap() {
        let created = against_a_bot(&server).await;
        assert_eq!(created.status, 201, "{}", created.text);
        let token = created.body["seats"]["white"]["token"]
            .as_str()
            .expect("a token");
        whites.push((
            created.body["id"].as_str().expect("an id").to_owned(),
            token.to_owned(),
        ));
    }
    check_full(&against_a_bot(&server).await);
    let between_bots = json!({"white": "bot:random", "black": "bot:random"});
    check_full(&server.post("/api/games", None, between_bots).await);
    let people = server.post("/api/games", None, json!({})).await;
    assert_eq!(people.status, 201, "games between people are not capped");
    // A game that ends frees its place.
    let (id, white) = &whites[0];
    let aborted = server
        .post(&format!("/api/games/{id}/abort"), Some(white), json!({}))
        .await;
    assert_eq!(aborted.status, 200, "{}", aborted.text);
    assert_eq!(against_a_bot(&server).await.status, 201);
    check_full(&against_a_bot(&server).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_the_bot_game_cap_holds_across_processes() {
    crate::common::two_on_postgres(|one, two| async move {
        for n in 0..cap() {
            let server = if n % 2 == 0 { &one } else { &two };
            assert_eq!(against_a_bot(server).await.status, 201);
        }
        check_full(&against_a_bot(&one).await);
        check_full(&against_a_bot(&two).await);
    })
    .await;
}

async fn a_game_between_bots_has_a_capped_clock(server: Server) {
    let body = |ms: i64| json!({"white": "bot:random", "black": "bot:random", "clock": {"initial_ms": ms}});
    let refused = server.post("/api/games", None, body(600_001)).await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    let message = refused.body["error"]["message"]
        .as_str()
        .expect("a message");
    assert!(
        message.contains("clock.initial_ms") && message.contains("600000"),
        "{message}"
    );
    let against_one = json!({"black": "bot:random", "clock": {"initial_ms": 3_600_000}});
    let created = server.post("/api/games", None, against_one).await;
    assert_eq!(
        created.status, 201,
        "a person may take all the time allowed"
    );
    let created = server.post("/api/games", None, body(600_000)).await;
    assert_eq!(created.status, 201, "{}", created.text);
    let id = created.body["id"].as_str().expect("an id");
    let stopped = stop(&server, &created.body).await;
    // Stopped at once; unless random bots ended it first.
    assert!(matches!(stopped.status, 200 | 409), "{}", stopped.text);
    let path = format!("/api/games/{id}");
    assert_ne!(server.get(&path, None).await.body["status"], "in_progress");
}

/// Stops a game between bots with its creator's token.
async fn stop(server: &Server, created: &Value) -> crate::common::Answer {
    let id = created["id"].as_str().expect("an id");
    let token = created["creator_token"].as_str().expect("a creator token");
    server
        .post(&format!("/api/games/{id}/abort"), Some(token), json!({}))
        .await
}

/// A game between two bots that has had a move and is still running when the creator stops it
/// → (its creation's answer, the stop's answer). Bots may win fast: another game is tried then.
async fn stopped_while_running(server: &Server) -> (Value, Value) {
    for _ in 0..10 {
        let body =
            json!({"white": "bot:random", "black": "bot:random", "clock": {"initial_ms": 60_000}});
        let created = server.post("/api/games", None, body).await;
        assert_eq!(created.status, 201, "{}", created.text);
        let path = format!("/api/games/{}", created.body["id"].as_str().expect("an id"));
        // A freeze holds both bots for 5 s: give them time for a move.
        let moved = eventually_async(Duration::from_secs(30), || async {
            server.get(&path, None).await.body["moves_played"].as_u64() >= Some(1)
        })
        .await;
        assert!(moved, "the bots play");
        let stopped = stop(server, &created.body).await;
        if stopped.status == 200 {
            return (created.body, stopped.body);
        }
        assert_eq!(
            stopped.body["error"]["code"], "not_in_progress",
            "{}",
            stopped.text
        );
    }
    panic!("ten games between bots all ended before they were stopped");
}

async fn the_creator_stops_a_game_between_bots(server: Server) {
    let body = json!({"white": "bot:random", "black": "bot:random"});
    let created = server.post("/api/games", None, body).await;
    assert_eq!(created.status, 201, "{}", created.text);
    assert_eq!(created.body["seats"]["white"]["token"], Value::Null);
    assert_eq!(created.body["seats"]["black"]["token"], Value::Null);
    let id = created.body["id"].as_str().expect("an id").to_owned();
    let abort = format!("/api/games/{id}/abort");
    let none = server.post(&abort, None, json!({})).await;
    assert_eq!(none.status, 401, "{}", none.text);
    let unknown = server
        .post(&abort, Some(&gmo_store::new_token()), json!({}))
        .await;
    assert_eq!(unknown.status, 401, "{}", unknown.text);
    let (_, white, _, other) = new_game(&server, json!({})).await;
    assert_eq!(
        other["creator_token"],
        Value::Null,
        "only a game between bots has one"
    );
    let foreign = server.post(&abort, Some(&white), json!({})).await;
    assert_eq!(foreign.status, 403, "{}", foreign.text);

    let (created, stopped) = stopped_while_running(&server).await;
    assert_eq!(stopped["status"], "aborted");
    assert_eq!(stopped["reason"], Value::Null);
    assert_eq!(stopped["to_move"], Value::Null);
    assert_eq!(
        stop(&server, &created).await.status,
        409,
        "a stopped game is over"
    );
    let path = format!("/api/games/{}", created["id"].as_str().expect("an id"));
    let record = server.get(&format!("{path}/record"), None).await;
    assert_eq!(record.status, 200, "{}", record.text);
    check_record_replays(&record.body);
    // No bot acts in a stopped game: a second later it is as it was stopped.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let later = server.get(&path, None).await;
    assert_eq!(later.body["moves_played"], stopped["moves_played"]);
}
