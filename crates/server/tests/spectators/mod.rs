//! Issue 26, spectators over HTTP on both backends: compact stream lines (what changed only, a
//! move under 600 bytes, and a board rebuilt from them equal to the full view's), the live games
//! listed most recent first, and the TV game.

use crate::common::{Lines, Server};
use crate::{new_game, play, set_up};
use serde_json::{Value, json};
use std::collections::BTreeMap;

both!(
    compact_lines_carry_what_changed_and_rebuild_the_board,
    live_games_are_listed_most_recent_first_and_tv_shows_one,
);

/// The board of a view as square → piece.
fn board_of(view: &Value) -> BTreeMap<String, Value> {
    view["board"]
        .as_array()
        .expect("a board")
        .iter()
        .map(|piece| {
            (
                piece["square"].as_str().expect("a square").to_owned(),
                piece.clone(),
            )
        })
        .collect()
}

/// `board` without the pieces' DNA (compact lines name a genome by its code).
fn without_dna(board: BTreeMap<String, Value>) -> BTreeMap<String, Value> {
    board
        .into_iter()
        .map(|(square, mut piece)| {
            if let Some(piece) = piece.as_object_mut() {
                piece.remove("dna");
            }
            (square, piece)
        })
        .collect()
}

/// Applies a compact line's squares to `board`.
fn apply(board: &mut BTreeMap<String, Value>, line: &Value) {
    for change in line["squares"].as_array().expect("squares") {
        let square = change["square"].as_str().expect("a square").to_owned();
        if change["piece"].is_null() {
            board.remove(&square);
        } else {
            board.insert(square, change["piece"].clone());
        }
    }
}

/// A game under way between two people → (id, White's token, Black's token).
async fn started(server: &Server) -> (String, String, String) {
    let (id, white, black, _) = new_game(server, json!({"clock": {"initial_ms": 600_000}})).await;
    set_up(server, &id, &white, "default", "d1").await;
    set_up(server, &id, &black, "default", "d8").await;
    (id, white, black)
}

async fn compact_stream(server: &Server, id: &str, token: Option<&str>) -> (Lines, Value) {
    let mut lines = server
        .stream_at(&format!("/api/games/{id}/stream?lines=compact"), token)
        .await;
    let (first, _) = lines.next().await.expect("the first line");
    assert!(
        first["board"].is_array(),
        "the first line is the whole view"
    );
    (lines, first)
}

async fn compact_lines_carry_what_changed_and_rebuild_the_board(server: Server) {
    let (id, white, black) = started(&server).await;
    let (mut spectator, first) = compact_stream(&server, &id, None).await;
    let (mut seat, seat_first) = compact_stream(&server, &id, Some(&white)).await;
    let mut board = board_of(&first);
    let mut seat_board = board_of(&seat_first);
    let mut version = first["version"].as_i64().unwrap_or(0);
    for (token, from, to) in [
        (&white, "e2", "e3"),
        (&black, "e7", "e6"),
        (&white, "d2", "d3"),
        (&black, "a7", "a6"),
    ] {
        play(&server, &id, token, from, to).await;
        let (line, text) = spectator.next().await.expect("a move line");
        assert_eq!(line["type"], "move", "{text}");
        assert!(
            line.get("game").is_none(),
            "no game view on a compact line: {text}"
        );
        assert!(
            text.len() <= 600,
            "a move line of {} bytes: {text}",
            text.len()
        );
        let squares: Vec<&str> = line["squares"]
            .as_array()
            .expect("squares")
            .iter()
            .map(|change| change["square"].as_str().expect("a square"))
            .collect();
        assert_eq!(squares.len(), 2, "a plain move changes two squares: {text}");
        assert!(squares.contains(&from) && squares.contains(&to), "{text}");
        let now = line["version"].as_i64().expect("a version");
        assert!(now > version, "versions grow");
        version = now;
        for key in ["clocks", "to_move", "status", "ply"] {
            assert!(line.get(key).is_some(), "{key} in {text}");
        }
        apply(&mut board, &line);
        let (seat_line, seat_text) = seat.next().await.expect("the seat's line");
        assert!(seat_text.len() <= 600, "{seat_text}");
        apply(&mut seat_board, &seat_line);
    }
    let full = server.get(&format!("/api/games/{id}"), None).await;
    assert_eq!(
        board,
        board_of(&full.body),
        "the spectator's board rebuilt from compact lines"
    );
    let full = server.get(&format!("/api/games/{id}"), Some(&white)).await;
    assert_eq!(
        without_dna(seat_board.clone()),
        without_dna(board_of(&full.body)),
        "White's board rebuilt from compact lines (codes and all; the DNA goes by code)"
    );
    let own = seat_board
        .values()
        .filter(|piece| piece["code"].is_string())
        .count();
    let theirs = seat_board
        .values()
        .filter(|piece| piece["color"] == "black" && piece["code"].is_string())
        .count();
    assert!(
        own > 0 && theirs == 0,
        "White's compact lines show its codes only"
    );
    let resigned = server
        .post(&format!("/api/games/{id}/resign"), Some(&black), json!({}))
        .await;
    assert_eq!(resigned.status, 200);
    let (end, text) = spectator.next().await.expect("the end line");
    assert_eq!(end["type"], "end", "{text}");
    assert_eq!(end["status"], "white_won");
    assert_eq!(end["reason"], "resigned");
    let refused = server
        .get(&format!("/api/games/{id}/stream?lines=tiny"), None)
        .await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    assert!(
        refused.body["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("lines")
    );
}

async fn live_games_are_listed_most_recent_first_and_tv_shows_one(server: Server) {
    let none = server.get("/api/tv", None).await;
    assert_eq!(none.status, 200);
    assert!(
        none.body["game"].is_null(),
        "no game in progress: {}",
        none.text
    );
    let (first, first_white, _) = started(&server).await;
    let (second, _, second_black) = started(&server).await;
    let (ended, ended_white, _) = started(&server).await;
    server
        .post(
            &format!("/api/games/{ended}/resign"),
            Some(&ended_white),
            json!({}),
        )
        .await;
    let setup = new_game(&server, json!({})).await.0;
    // The first game moves last: it comes first.
    tokio::time::sleep(std::time::Duration::from_millis(1_100)).await;
    play(&server, &first, &first_white, "e2", "e3").await;
    let listed = server.get("/api/games?status=in_progress", None).await;
    assert_eq!(listed.status, 200, "{}", listed.text);
    let ids: Vec<&str> = listed
        .body
        .as_array()
        .expect("a list")
        .iter()
        .map(|view| view["id"].as_str().expect("an id"))
        .collect();
    assert_eq!(
        ids,
        [first.as_str(), second.as_str()],
        "in progress only, the latest move first"
    );
    let views = listed.body.as_array().expect("a list");
    assert!(
        views.iter().all(|view| view["you"].is_null()),
        "spectator views"
    );
    assert!(
        views
            .iter()
            .flat_map(|view| view["board"].as_array().into_iter().flatten())
            .all(|piece| piece.get("code").is_none()),
        "nobody's codes"
    );
    assert!(!ids.contains(&ended.as_str()) && !ids.contains(&setup.as_str()));
    let tv = server.get("/api/tv", None).await;
    assert_eq!(tv.body["game"], first.as_str(), "the most recent live game");
    let page_two = server
        .get("/api/games?status=in_progress&page=2", None)
        .await;
    assert_eq!(page_two.body, json!([]), "50 a page");
    for bad in [
        "/api/games",
        "/api/games?status=finished",
        "/api/games?status=in_progress&page=0",
    ] {
        let refused = server.get(bad, None).await;
        assert_eq!(refused.status, 422, "{bad}: {}", refused.text);
    }
    let _ = second_black;
}
