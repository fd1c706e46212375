//! The increment over HTTP: a side's clock gains `increment_ms` after each of its moves once the
//! clocks run (not for the first moves, which are on no clock); bounds are refused with 422
//! naming the field.

use super::started;
use crate::common::Server;
use crate::play;
use serde_json::json;

both!(
    a_move_earns_the_increment,
    increments_out_of_bounds_get_422_naming_the_field,
);

async fn a_move_earns_the_increment(server: Server) {
    let clock = json!({"clock": {"initial_ms": 60_000, "increment_ms": 10_000}});
    let (id, white, black) = started(&server, clock).await;
    let view = server.get(&format!("/api/games/{id}"), None).await;
    assert_eq!(view.body["clocks"]["increment_ms"], 10_000);
    // The first moves are on no clock (rules §5.4): they earn nothing, and no clock runs.
    let first = play(&server, &id, &white, "e2", "e3").await;
    assert_eq!(first["game"]["clocks"]["white_ms"], 60_000);
    assert_eq!(first["game"]["clocks"]["running"], serde_json::Value::Null);
    let first = play(&server, &id, &black, "e7", "e6").await;
    assert_eq!(first["game"]["clocks"]["black_ms"], 60_000);
    assert_eq!(first["game"]["clocks"]["running"], "white");
    let moved = play(&server, &id, &white, "d2", "d3").await;
    let white_ms = moved["game"]["clocks"]["white_ms"].as_i64().expect("ms");
    // Less than 10 s passed since the clocks started, and 10 s were added.
    assert!(white_ms > 60_000 && white_ms <= 70_000, "{white_ms}");
    assert_eq!(moved["game"]["clocks"]["running"], "black");
    let answered = play(&server, &id, &black, "d7", "d6").await;
    let black_ms = answered["game"]["clocks"]["black_ms"].as_i64().expect("ms");
    assert!(black_ms > 60_000 && black_ms <= 70_000, "{black_ms}");

    // Without an increment the clock only runs down.
    let (plain, plain_white, plain_black) =
        started(&server, json!({"clock": {"initial_ms": 60_000}})).await;
    play(&server, &plain, &plain_white, "e2", "e3").await;
    play(&server, &plain, &plain_black, "e7", "e6").await;
    let moved = play(&server, &plain, &plain_white, "d2", "d3").await;
    assert_eq!(moved["game"]["clocks"]["increment_ms"], 0);
    let white_ms = moved["game"]["clocks"]["white_ms"].as_i64().expect("ms");
    assert!(white_ms <= 60_000, "{white_ms}");
}

async fn increments_out_of_bounds_get_422_naming_the_field(server: Server) {
    for increment in [json!(60_001), json!(-1), json!(1.5), json!("2000")] {
        let body = json!({"clock": {"initial_ms": 60_000, "increment_ms": increment}});
        let answer = server.post("/api/games", None, body).await;
        assert_eq!(answer.status, 422, "{increment}: {}", answer.text);
        let message = answer.body["error"]["message"].as_str().expect("a message");
        assert!(message.contains("increment"), "{increment}: {message}");
    }
    let most = json!({"clock": {"initial_ms": 60_000, "increment_ms": 60_000}});
    let answer = server.post("/api/games", None, most).await;
    assert_eq!(answer.status, 201, "{}", answer.text);
    assert_eq!(answer.body["game"]["clocks"]["increment_ms"], 60_000);
}
