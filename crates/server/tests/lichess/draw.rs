//! `POST /api/games/{id}/draw`: offer, decline by moving, accept; announced on the stream.

use super::{rest_of, started, types};
use crate::common::Server;
use crate::{new_game, play};
use serde_json::json;
use std::time::Duration;

both!(
    a_draw_is_offered_declined_by_a_move_and_agreed,
    a_draw_is_refused_outside_play,
);

async fn a_draw_is_offered_declined_by_a_move_and_agreed(server: Server) {
    let (id, white, black) = started(&server, json!({})).await;
    let draw = format!("/api/games/{id}/draw");
    let mut stream = server.stream(&id, None).await;
    let (first, _) = stream.next().await.expect("the first line");
    assert_eq!(first["draw_offer"], json!(null));
    let offered = server.post(&draw, Some(&white), json!({})).await;
    assert_eq!(offered.status, 200, "{}", offered.text);
    assert_eq!(offered.body["draw_offer"], "white");
    assert_eq!(offered.body["status"], "in_progress");
    // Offering again changes nothing.
    let again = server.post(&draw, Some(&white), json!({})).await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.body["draw_offer"], "white");
    // White's own move keeps the offer; Black's move declines it.
    let moved = play(&server, &id, &white, "e2", "e3").await;
    assert_eq!(moved["game"]["draw_offer"], "white");
    let declined = play(&server, &id, &black, "e7", "e6").await;
    assert_eq!(declined["game"]["draw_offer"], json!(null));
    let offered = server.post(&draw, Some(&black), json!({})).await;
    assert_eq!(offered.body["draw_offer"], "black");
    let agreed = server.post(&draw, Some(&white), json!({})).await;
    assert_eq!(agreed.status, 200, "{}", agreed.text);
    assert_eq!(agreed.body["status"], "draw");
    assert_eq!(agreed.body["reason"], "agreement");
    assert_eq!(agreed.body["clocks"]["running"], json!(null));
    let lines = rest_of(&mut stream, Duration::from_secs(5)).await;
    assert_eq!(
        types(&lines),
        [
            "draw_offer",
            "move",
            "move",
            "draw_declined",
            "draw_offer",
            "draw_agreed",
            "end"
        ]
    );
    assert_eq!(lines[0]["game"]["draw_offer"], "white");
    assert_eq!(lines[3]["game"]["draw_offer"], json!(null));
    assert_eq!(
        lines[2]["version"], lines[3]["version"],
        "one change, two lines"
    );
    assert_eq!(lines[6]["game"]["reason"], "agreement");
    let late = server.post(&draw, Some(&black), json!({})).await;
    assert_eq!(late.status, 409, "{}", late.text);
    assert_eq!(late.body["error"]["code"], "not_in_progress");
}

async fn a_draw_is_refused_outside_play(server: Server) {
    let (id, white, _, _) = new_game(&server, json!({})).await;
    let draw = format!("/api/games/{id}/draw");
    let early = server.post(&draw, Some(&white), json!({})).await;
    assert_eq!(early.status, 409, "{}", early.text);
    assert_eq!(early.body["error"]["code"], "not_in_progress");
    let anonymous = server.post(&draw, None, json!({})).await;
    assert_eq!(anonymous.status, 401, "{}", anonymous.text);
    let missing = server
        .post(
            "/api/games/00000000000000000000000000000000/draw",
            Some(&white),
            json!({}),
        )
        .await;
    assert_eq!(missing.status, 404, "{}", missing.text);
    let view = server.get(&format!("/api/games/{id}"), None).await;
    assert_eq!(view.body["status"], "setup");
    assert_eq!(view.body["draw_offer"], json!(null));
}
