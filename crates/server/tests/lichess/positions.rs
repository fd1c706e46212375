//! `GET /api/games/{id}/positions`: the board after every ply as the caller may see it, exactly as
//! the game view showed it then, hidden codes still hidden, in pages of 100.

use crate::common::Server;
use crate::{PromotionGame, new_game, play, promotion_game, set_up};
use serde_json::{Value, json};

both!(
    positions_are_the_boards_each_viewer_saw,
    positions_come_in_pages_and_refuse_bad_queries,
);

/// The board of a game view as a position shows it: without DNA.
fn board_without_dna(view: &Value) -> Value {
    let mut board = view["board"].clone();
    for piece in board.as_array_mut().expect("a board") {
        piece.as_object_mut().expect("a piece").remove("dna");
    }
    board
}

/// The game as each viewer sees it now: (white, black, spectator).
async fn views(server: &Server, id: &str, white: &str, black: &str) -> [Value; 3] {
    let path = format!("/api/games/{id}");
    [
        server.get(&path, Some(white)).await.body,
        server.get(&path, Some(black)).await.body,
        server.get(&path, None).await.body,
    ]
}

async fn positions(server: &Server, id: &str, token: Option<&str>, from: &str) -> Value {
    let answer = server
        .get(&format!("/api/games/{id}/positions{from}"), token)
        .await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    answer.body
}

async fn positions_are_the_boards_each_viewer_saw(server: Server) {
    let PromotionGame {
        id,
        white,
        black,
        white_preset,
        black_preset,
        ..
    } = promotion_game(&server).await;
    let before = positions(&server, &id, None, "").await;
    assert_eq!(before["plies"], 0);
    assert_eq!(before["positions"].as_array().map(Vec::len), Some(1));
    set_up(&server, &id, &white, &white_preset, "b1").await;
    set_up(&server, &id, &black, &black_preset, "c4").await;

    // Every view along the way, for each viewer: what the positions must repeat.
    let mut seen = vec![views(&server, &id, &white, &black).await];
    for (token, from, to) in [
        (&white, "b2", "c3"),
        (&black, "b3", "b2"),
        (&white, "c3", "d4"),
    ] {
        play(&server, &id, token, from, to).await;
        seen.push(views(&server, &id, &white, &black).await);
    }
    let promoted = server
        .post(
            &format!("/api/games/{id}/promotion"),
            Some(&white),
            json!({"genome": "rook"}),
        )
        .await;
    assert_eq!(promoted.status, 200, "{}", promoted.text);
    seen.push(views(&server, &id, &white, &black).await);

    for (who, token) in [(0, Some(white.as_str())), (1, Some(&black)), (2, None)] {
        let page = positions(&server, &id, token, "").await;
        assert_eq!(page["plies"], 4, "{page}");
        assert_eq!(page["next"], Value::Null);
        let list = page["positions"].as_array().expect("positions");
        assert_eq!(list.len(), seen.len());
        for (ply, (position, views)) in list.iter().zip(&seen).enumerate() {
            assert_eq!(position["ply"], ply);
            assert_eq!(
                position["board"],
                board_without_dna(&views[who]),
                "viewer {who}, position {ply}"
            );
            assert_eq!(position["kings_in_danger"], views[who]["kings_in_danger"]);
        }
        assert!(!page.to_string().contains("\"dna\""), "no DNA: {page}");
    }
    // The promoted rook on d4: White sees its code, Black and spectators only its species.
    let after = |page: &Value| page["positions"][4]["board"].clone();
    let on_d4 = |board: Value| {
        board
            .as_array()
            .expect("a board")
            .iter()
            .find(|piece| piece["square"] == "d4")
            .cloned()
            .expect("a piece on d4")
    };
    let as_black = on_d4(after(&positions(&server, &id, Some(&black), "").await));
    assert!(as_black.get("code").is_none(), "{as_black}");
    assert!(as_black["species"].is_string());
    let as_white = on_d4(after(&positions(&server, &id, Some(&white), "").await));
    assert!(as_white["code"].is_string(), "{as_white}");

    // After the end, every code is shown, in every position.
    let resigned = server
        .post(&format!("/api/games/{id}/resign"), Some(&black), json!({}))
        .await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
    let open = positions(&server, &id, None, "").await;
    assert_eq!(on_d4(after(&open))["code"], as_white["code"]);
    for position in open["positions"].as_array().expect("positions") {
        for piece in position["board"].as_array().expect("a board") {
            assert!(piece["code"].is_string(), "{piece}");
        }
    }
}

async fn positions_come_in_pages_and_refuse_bad_queries(server: Server) {
    let (id, white, black) = super::started(&server, json!({})).await;
    // Knights out and back: 104 plies, then a queen's move that puts Black's king in danger.
    for _ in 0..26 {
        play(&server, &id, &white, "b1", "c3").await;
        play(&server, &id, &black, "b8", "c6").await;
        play(&server, &id, &white, "c3", "b1").await;
        play(&server, &id, &black, "c6", "b8").await;
    }
    play(&server, &id, &white, "f2", "f3").await;
    play(&server, &id, &black, "e7", "e6").await;
    let queen = play(&server, &id, &white, "e1", "h4").await;
    assert_eq!(queen["game"]["kings_in_danger"]["black"], json!(["d8"]));

    let first = positions(&server, &id, Some(&black), "").await;
    assert_eq!(first["plies"], 107);
    let list = first["positions"].as_array().expect("positions");
    assert_eq!(list.len(), 100, "at most 100 an answer");
    assert_eq!(list[99]["ply"], 99);
    assert_eq!(first["next"], 100);
    // The knights' round trips: the start comes back every 4 plies.
    assert_eq!(list[4]["board"], list[0]["board"]);
    assert_ne!(list[1]["board"], list[0]["board"]);
    let rest = positions(&server, &id, Some(&black), "?from=100").await;
    let list = rest["positions"].as_array().expect("positions");
    let plies: Vec<&Value> = list.iter().map(|position| &position["ply"]).collect();
    assert_eq!(plies, [100, 101, 102, 103, 104, 105, 106, 107]);
    assert_eq!(rest["next"], Value::Null);
    assert_eq!(list[7]["kings_in_danger"]["black"], json!(["d8"]));
    assert_eq!(list[6]["kings_in_danger"]["black"], json!([]));
    let view = server.get(&format!("/api/games/{id}"), Some(&black)).await;
    assert_eq!(list[7]["board"], board_without_dna(&view.body));
    let last = positions(&server, &id, None, "?from=107").await;
    assert_eq!(last["positions"].as_array().map(Vec::len), Some(1));

    let path = format!("/api/games/{id}/positions");
    let beyond = positions(&server, &id, None, "?from=108").await;
    assert_eq!(beyond["positions"], json!([]));
    assert_eq!(beyond["plies"], 107);
    assert_eq!(beyond["next"], Value::Null);
    for query in ["?from=-1", "?from=x", "?to=3", "?from=1&from=2"] {
        let refused = server.get(&format!("{path}{query}"), None).await;
        assert_eq!(refused.status, 422, "{query}: {}", refused.text);
        assert_eq!(refused.body["error"]["code"], "invalid_field", "{query}");
    }
    let unknown = server
        .get(
            "/api/games/00000000000000000000000000000000/positions",
            None,
        )
        .await;
    assert_eq!(unknown.status, 404, "{}", unknown.text);
    let stranger = server.get(&path, Some("0123abcd")).await;
    assert_eq!(stranger.status, 401, "{}", stranger.text);
    let (_, other, _, _) = new_game(&server, json!({})).await;
    assert_eq!(server.get(&path, Some(&other)).await.status, 403);
}
