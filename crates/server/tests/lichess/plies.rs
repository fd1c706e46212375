//! `GET /api/games/{id}/plies` and the stream's first line: the history as the caller saw it.

use super::{rest_of, types};
use crate::common::Server;
use crate::{PromotionGame, new_game, play, promotion_game, set_up, standard};
use serde_json::{Value, json};
use std::time::Duration;

both!(
    plies_rebuild_the_history_as_each_viewer_saw_it,
    plies_refuse_unknown_games_and_tokens,
);

async fn plies_rebuild_the_history_as_each_viewer_saw_it(server: Server) {
    let PromotionGame {
        id,
        white,
        black,
        white_preset,
        black_preset,
        ..
    } = promotion_game(&server).await;
    let path = format!("/api/games/{id}/plies");
    let none = server.get(&path, None).await;
    assert_eq!((none.status, none.body.clone()), (200, json!([])));
    let mut black_stream = server.stream(&id, Some(&black)).await;
    let (first, _) = black_stream.next().await.expect("the first line");
    assert_eq!(first["plies"], json!([]), "{first}");
    set_up(&server, &id, &white, &white_preset, "b1").await;
    set_up(&server, &id, &black, &black_preset, "c4").await;
    play(&server, &id, &white, "b2", "c3").await;
    play(&server, &id, &black, "b3", "b2").await;
    play(&server, &id, &white, "c3", "d4").await;
    let promoted = server
        .post(
            &format!("/api/games/{id}/promotion"),
            Some(&white),
            json!({"genome": "rook"}),
        )
        .await;
    assert_eq!(promoted.status, 200, "{}", promoted.text);

    let rook = standard("rook").code().to_string();
    let as_white = server.get(&path, Some(&white)).await;
    let as_black = server.get(&path, Some(&black)).await;
    let as_anyone = server.get(&path, None).await;
    for answer in [&as_white, &as_black, &as_anyone] {
        assert_eq!(answer.status, 200, "{}", answer.text);
        let plies = answer.body.as_array().expect("a list");
        let moves: Vec<(&Value, &Value)> = plies[..3]
            .iter()
            .map(|ply| (&ply["from"], &ply["to"]))
            .collect();
        assert_eq!(
            moves,
            [
                (&json!("b2"), &json!("c3")),
                (&json!("b3"), &json!("b2")),
                (&json!("c3"), &json!("d4"))
            ]
        );
        assert_eq!(plies[3]["type"], "promotion");
        assert_eq!(plies[3]["promotion"], "d4");
        assert_eq!(plies.len(), 4);
    }
    assert_eq!(
        as_white.body[3]["genome"],
        json!(rook),
        "White sees its own"
    );
    assert!(
        as_black.body[3].get("genome").is_none(),
        "{}",
        as_black.text
    );
    assert!(
        as_anyone.body[3].get("genome").is_none(),
        "{}",
        as_anyone.text
    );

    // The same plies as the stream showed them, and the first line of a new stream.
    let mut again = server.stream(&id, Some(&black)).await;
    let (first, _) = again.next().await.expect("the first line");
    assert_eq!(first["plies"], as_black.body);
    assert_eq!(first["id"], id, "the first line is still the game view");
    assert_eq!(first["moves_played"], 3);
    let resigned = server
        .post(&format!("/api/games/{id}/resign"), Some(&black), json!({}))
        .await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
    let lines = rest_of(&mut black_stream, Duration::from_secs(5)).await;
    let streamed: Vec<&Value> = lines
        .iter()
        .filter(|line| line["type"] == "move" || line["type"] == "promotion")
        .map(|line| &line["ply"])
        .collect();
    let listed: Vec<&Value> = as_black.body.as_array().expect("plies").iter().collect();
    assert_eq!(streamed, listed, "{:?}", types(&lines));

    // After the end every genome is shown.
    let after = server.get(&path, None).await;
    assert_eq!(after.body[3]["genome"], json!(rook), "{}", after.text);
}

async fn plies_refuse_unknown_games_and_tokens(server: Server) {
    let (id, _, _, _) = new_game(&server, json!({})).await;
    let missing = server
        .get("/api/games/00000000000000000000000000000000/plies", None)
        .await;
    assert_eq!(missing.status, 404, "{}", missing.text);
    assert_eq!(missing.body["error"]["code"], "not_found");
    let malformed = server.get("/api/games/nosuchgame/plies", None).await;
    assert_eq!(malformed.status, 400, "{}", malformed.text);
    assert_eq!(malformed.body["error"]["code"], "bad_path");
    let unknown = server
        .get(&format!("/api/games/{id}/plies"), Some("0123abcd"))
        .await;
    assert_eq!(unknown.status, 401, "{}", unknown.text);
    let (_, other, _, _) = new_game(&server, json!({})).await;
    let foreign = server
        .get(&format!("/api/games/{id}/plies"), Some(&other))
        .await;
    assert_eq!(foreign.status, 403, "{}", foreign.text);
}

/// Moves made in one process faster than another relays them: the other's stream still shows
/// every move, in order, each with the game it made (a stale announcement is rebuilt from the
/// record instead of skipped).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_stream_in_another_process_skips_no_move() {
    crate::common::two_on_postgres(|one, two| async move {
        let (id, white, black) = super::started(&one, json!({})).await;
        let mut stream = two.stream(&id, None).await;
        stream.next().await.expect("the first line");
        let files = ["a", "b", "c", "d", "e", "f", "g", "h"];
        let mut made = Vec::new();
        for file in files {
            for (token, from, to) in [(&white, "2", "3"), (&black, "7", "6")] {
                let (from, to) = (format!("{file}{from}"), format!("{file}{to}"));
                let moved = one
                    .post(
                        &format!("/api/games/{id}/moves"),
                        Some(token),
                        json!({"from": from, "to": to}),
                    )
                    .await;
                assert_eq!(moved.status, 200, "{}", moved.text);
                made.push((from, to));
            }
        }
        let mut seen = Vec::new();
        let mut last_version = 0;
        while seen.len() < made.len() {
            let (line, _) = stream
                .next_within(Duration::from_secs(5))
                .await
                .expect("every move arrives");
            assert_eq!(line["type"], "move", "{line}");
            let version = line["version"].as_i64().expect("a version");
            assert!(version > last_version, "{version} after {last_version}");
            last_version = version;
            let ply = &line["ply"];
            let text = |value: &Value| value.as_str().expect("a square").to_owned();
            seen.push((text(&ply["from"]), text(&ply["to"])));
            assert_eq!(line["game"]["moves_played"], seen.len(), "{line}");
        }
        assert_eq!(seen, made);
    })
    .await;
}
