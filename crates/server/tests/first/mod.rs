//! Issue 22, the first ten minutes, over HTTP: first-move timers (the clocks start once both
//! sides have moved; a side that lets its timer run out aborts the game, on the stream and in the
//! record), move views that say which moves lose or expose one's own king, and standard pieces
//! named for every viewer.

mod presence;
mod timers;

use crate::common::Server;
use serde_json::{Value, json};

both!(
    a_move_that_takes_ones_own_king_or_opens_a_line_to_it_says_so,
    standard_pieces_are_named_for_every_viewer,
    an_unknown_route_is_named_in_its_404,
);

/// A path no route answers is named in the error (it said `no route "this path"`), cut short
/// when long.
async fn an_unknown_route_is_named_in_its_404(server: Server) {
    let missing = server.get("/api/nosuch/thing", None).await;
    assert_eq!(missing.status, 404, "{}", missing.text);
    assert_eq!(missing.body["error"]["what"], "route");
    let message = missing.body["error"]["message"]
        .as_str()
        .expect("a message");
    assert_eq!(message, r#"no route "/api/nosuch/thing""#);
    let long = format!("/api/{}", "x".repeat(5_000));
    let missing = server.get(&long, None).await;
    assert_eq!(missing.status, 404);
    let message = missing.body["error"]["message"]
        .as_str()
        .expect("a message");
    assert!(message.len() < 200 && message.ends_with("…\""), "{message}");
}

/// After 1.d3, Black's queen on e8 may take its own king on d8 (standard pieces may take their
/// own): the move view says that it loses the king; its other moves do not.
async fn a_move_that_takes_ones_own_king_or_opens_a_line_to_it_says_so(server: Server) {
    let (id, white, black) = crate::lichess::started(&server, json!({})).await;
    crate::play(&server, &id, &white, "d2", "d3").await;
    let listed = server
        .get(&format!("/api/games/{id}/moves/e8"), Some(&black))
        .await;
    assert_eq!(listed.status, 200, "{}", listed.text);
    let moves = listed.body.as_array().expect("moves");
    let takes_king = moves
        .iter()
        .find(|m| m["to"] == "d8")
        .expect("the queen may take its own king");
    assert_eq!(takes_king["loses_own_king"], true, "{takes_king}");
    for other in moves.iter().filter(|m| m["to"] != "d8") {
        assert_eq!(other["loses_own_king"], false, "{other}");
        assert!(other["exposes_king"].is_boolean(), "{other}");
    }
    // In a lab, where pieces stand anywhere: a white rook on d2 shields its king on d1 from a
    // black rook that only moves down the board (its DNA below). Stepping aside exposes the king.
    let lab = server.post("/api/labs", None, json!({})).await;
    assert_eq!(lab.status, 201, "{}", lab.text);
    let (lab_id, token) = (
        lab.body["id"].as_str().expect("an id"),
        lab.body["token"].as_str().expect("a token"),
    );
    let forward_rook = "AHH HAS HAA CHA CHA CHA HHA SAS AAA AAA AAA";
    for (square, piece) in [
        (
            "d1",
            json!({"genome": "king", "color": "white", "king": true}),
        ),
        ("d2", json!({"genome": "rook", "color": "white"})),
        ("d5", json!({"dna": forward_rook, "color": "black"})),
        (
            "h8",
            json!({"genome": "king", "color": "black", "king": true}),
        ),
    ] {
        let placed = server
            .put(
                &format!("/api/labs/{lab_id}/squares/{square}"),
                Some(token),
                piece,
            )
            .await;
        assert_eq!(placed.status, 200, "{square}: {}", placed.text);
    }
    let listed = server
        .get(&format!("/api/labs/{lab_id}/moves/d2"), Some(token))
        .await;
    assert_eq!(listed.status, 200, "{}", listed.text);
    let flags = |to: &str| {
        let mv = listed
            .body
            .as_array()
            .expect("moves")
            .iter()
            .find(|m| m["to"] == to)
            .unwrap_or_else(|| panic!("d2-{to} is listed"))
            .clone();
        (mv["loses_own_king"].clone(), mv["exposes_king"].clone())
    };
    assert_eq!(flags("e2"), (json!(false), json!(true)), "the d-file opens");
    assert_eq!(
        flags("d3"),
        (json!(false), json!(false)),
        "still in the way"
    );
    assert_eq!(flags("d1"), (json!(true), json!(false)), "its own king");
}

/// The six standard genomes are public knowledge (rules §5.6): a piece of one carries its name in
/// every view, the opponent's and a spectator's included, though its code stays hidden.
async fn standard_pieces_are_named_for_every_viewer(server: Server) {
    let (id, _, black) = crate::lichess::started(&server, json!({})).await;
    let view = server.get(&format!("/api/games/{id}"), Some(&black)).await;
    assert_eq!(view.status, 200, "{}", view.text);
    let white_queen = crate::piece(&view.body, "e1").expect("White's queen");
    assert_eq!(white_queen["name"], "queen");
    assert!(
        white_queen.get("code").is_none(),
        "the opponent's code stays hidden"
    );
    let spectator = server.get(&format!("/api/games/{id}"), None).await;
    let names: Vec<&Value> = spectator.body["board"]
        .as_array()
        .expect("a board")
        .iter()
        .map(|piece| &piece["name"])
        .collect();
    assert_eq!(names.len(), 32);
    assert!(names.iter().all(|name| name.is_string()), "{names:?}");
    assert_eq!(
        crate::piece(&spectator.body, "d8").expect("a king")["name"],
        "king"
    );
}
