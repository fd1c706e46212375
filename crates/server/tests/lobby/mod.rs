//! Issue 13, the lobby over HTTP on both backends: seeks pair automatically within their pool
//! and colours, accept takes a listed seek, withdrawn and quiet seeks are never paired, and bad
//! input is refused with nothing stored. The two-process tests run the real binary
//! (crates/cli/tests/durable/lobby.rs).

use crate::common::{Lines, Server};
use serde_json::{Value, json};
use std::time::Duration;

both!(
    two_seeks_pair_into_one_game_in_setup_with_working_tokens,
    seeks_pair_only_within_their_pool_and_with_fitting_colours,
    accept_takes_a_listed_seek_once,
    a_withdrawn_seek_is_never_paired_and_guards_its_token,
    a_seek_whose_stream_is_gone_is_withdrawn_after_10_s,
    bad_seeks_get_4xx_and_store_nothing,
);

/// Opens a seek → (id, token).
pub async fn seek(server: &Server, body: Value) -> (String, String) {
    let made = server.post("/api/seeks", None, body).await;
    assert_eq!(made.status, 201, "{}", made.text);
    let text = |key: &str| made.body[key].as_str().expect("a string").to_owned();
    assert_eq!(
        made.body.as_object().map(|o| o.len()),
        Some(2),
        "{}",
        made.text
    );
    (text("id"), text("token"))
}

async fn follow(server: &Server, id: &str, token: &str) -> Lines {
    server
        .stream_at(&format!("/api/seeks/{id}/stream"), Some(token))
        .await
}

/// The next line that is not `waiting`, and the stream must close after it.
async fn outcome(lines: &mut Lines) -> Value {
    loop {
        let (line, text) = lines
            .next_within(Duration::from_secs(6))
            .await
            .expect("a line before the end");
        if line["type"] != "waiting" {
            assert!(
                lines.next().await.is_none(),
                "the stream closes after {text}"
            );
            return line;
        }
        assert!(line["age_ms"].as_i64().is_some(), "{text}");
    }
}

fn five_zero(color: &str) -> Value {
    json!({"clock": {"initial_ms": 300_000}, "color": color})
}

async fn listed(server: &Server) -> Vec<Value> {
    let list = server.get("/api/seeks", None).await;
    assert_eq!(list.status, 200, "{}", list.text);
    list.body.as_array().expect("an array").clone()
}

/// The game as `token` sees it; its `you` must be `seat`.
async fn seat_sees(server: &Server, game: &str, token: &str, seat: &str) -> Value {
    let shown = server.get(&format!("/api/games/{game}"), Some(token)).await;
    assert_eq!(shown.status, 200, "{}", shown.text);
    assert_eq!(shown.body["you"], seat, "{}", shown.text);
    shown.body
}

async fn two_seeks_pair_into_one_game_in_setup_with_working_tokens(server: Server) {
    let (first, first_token) = seek(&server, five_zero("white")).await;
    let mut waiting = follow(&server, &first, &first_token).await;
    let (line, _) = waiting.next().await.expect("a first line");
    assert_eq!(line["type"], "waiting");
    let (second, second_token) = seek(&server, five_zero("random")).await;
    let mut paired = follow(&server, &second, &second_token).await;
    let one = outcome(&mut waiting).await;
    let two = outcome(&mut paired).await;
    assert_eq!(one["type"], "paired");
    assert_eq!(two["type"], "paired");
    assert_eq!(one["game"], two["game"]);
    assert_eq!(one["seat"], "white", "the wish is honoured");
    assert_eq!(two["seat"], "black");
    let game = one["game"].as_str().expect("a game id");
    let (white, black) = (
        one["token"].as_str().expect("a token"),
        two["token"].as_str().expect("a token"),
    );
    assert_ne!(white, first_token, "the seat token is not the seek token");
    let view = seat_sees(&server, game, white, "white").await;
    assert_eq!(view["status"], "setup");
    assert_eq!(view["clocks"]["white_ms"], 300_000, "{view}");
    seat_sees(&server, game, black, "black").await;
    // Each side loads its own preset and the game starts, as any game does.
    crate::set_up(&server, game, white, "default", "d1").await;
    let started = crate::set_up(&server, game, black, "default", "d8").await;
    assert_eq!(started["status"], "in_progress", "{started}");
    assert!(
        listed(&server).await.is_empty(),
        "paired seeks leave the list"
    );
    // A paired seek cannot be withdrawn; its stream, reopened, says `paired` again.
    let withdrawn = server
        .delete(&format!("/api/seeks/{first}"), Some(&first_token))
        .await;
    assert_eq!(withdrawn.status, 409, "{}", withdrawn.text);
    assert_eq!(withdrawn.body["error"]["code"], "seek_paired");
    let again = outcome(&mut follow(&server, &first, &first_token).await).await;
    assert_eq!(again["game"], game);
    assert_eq!(
        server.app.play.lobby.bell().len(),
        0,
        "no stream holds a bell"
    );
}

async fn seeks_pair_only_within_their_pool_and_with_fitting_colours(server: Server) {
    let (a, a_token) = seek(&server, five_zero("white")).await;
    let (b, b_token) = seek(
        &server,
        json!({"clock": {"initial_ms": 180_000, "increment_ms": 2_000}, "width": 6, "height": 6}),
    )
    .await;
    let (c, c_token) = seek(&server, five_zero("white")).await;
    let list = listed(&server).await;
    let ids: Vec<&str> = list.iter().filter_map(|s| s["id"].as_str()).collect();
    assert_eq!(ids, [c.as_str(), b.as_str(), a.as_str()], "newest first");
    let shown = &list[1];
    assert_eq!(
        shown["clock"],
        json!({"initial_ms": 180_000, "increment_ms": 2_000})
    );
    assert_eq!(
        (shown["width"].as_i64(), shown["height"].as_i64()),
        (Some(6), Some(6))
    );
    assert_eq!(shown["color"], "random");
    assert!(shown["age_ms"].as_i64().is_some_and(|age| age >= 0));
    assert!(list.iter().all(|s| s.get("token").is_none()), "{list:?}");
    // Two white wishes never pair; a board or clock apart never pair.
    let mut a_lines = follow(&server, &a, &a_token).await;
    assert_eq!(a_lines.next().await.expect("a line").0["type"], "waiting");
    let withdrawn = server
        .delete(&format!("/api/seeks/{b}"), Some(&b_token))
        .await;
    assert_eq!(withdrawn.status, 204, "{}", withdrawn.text);
    let (d, d_token) = seek(&server, five_zero("black")).await;
    let d_line = outcome(&mut follow(&server, &d, &d_token).await).await;
    let a_line = outcome(&mut a_lines).await;
    assert_eq!(
        d_line["game"], a_line["game"],
        "the oldest fitting seek is taken"
    );
    assert_eq!(
        (a_line["seat"].as_str(), d_line["seat"].as_str()),
        (Some("white"), Some("black"))
    );
    let left: Vec<Value> = listed(&server).await;
    assert_eq!(left.len(), 1, "{left:?}");
    assert_eq!(left[0]["id"], c.as_str());
    let c_gone = server
        .delete(&format!("/api/seeks/{c}"), Some(&c_token))
        .await;
    assert_eq!(c_gone.status, 204);
}

async fn accept_takes_a_listed_seek_once(server: Server) {
    let (id, token) = seek(&server, five_zero("black")).await;
    let mut lines = follow(&server, &id, &token).await;
    assert_eq!(lines.next().await.expect("a line").0["type"], "waiting");
    let taken = server
        .post(&format!("/api/seeks/{id}/accept"), None, json!({}))
        .await;
    assert_eq!(taken.status, 200, "{}", taken.text);
    assert_eq!(
        taken.body["seat"], "white",
        "the taker gets the colour not wished for"
    );
    let game = taken.body["game"].as_str().expect("a game");
    let taker = taken.body["token"].as_str().expect("a token");
    let line = outcome(&mut lines).await;
    assert_eq!(line["type"], "paired");
    assert_eq!(line["game"], game);
    assert_eq!(line["seat"], "black");
    seat_sees(&server, game, taker, "white").await;
    seat_sees(
        &server,
        game,
        line["token"].as_str().expect("a token"),
        "black",
    )
    .await;
    let again = server
        .post(&format!("/api/seeks/{id}/accept"), None, json!({}))
        .await;
    assert_eq!(again.status, 409, "{}", again.text);
    assert_eq!(again.body["error"]["code"], "seek_paired");
    let unknown = server
        .post(
            &format!("/api/seeks/{}/accept", gmo_store::new_id()),
            None,
            json!({}),
        )
        .await;
    assert_eq!(unknown.status, 404, "{}", unknown.text);
    assert_eq!(unknown.body["error"]["what"], "seek");
}

async fn a_withdrawn_seek_is_never_paired_and_guards_its_token(server: Server) {
    let (id, token) = seek(&server, five_zero("random")).await;
    let mut lines = follow(&server, &id, &token).await;
    assert_eq!(lines.next().await.expect("a line").0["type"], "waiting");
    let (other, other_token) = seek(&server, json!({"clock": {"initial_ms": 60_000}})).await;
    let path = format!("/api/seeks/{id}");
    let foreign = server.delete(&path, Some(&other_token)).await;
    assert_eq!(
        foreign.status, 403,
        "another seek's token: {}",
        foreign.text
    );
    let unknown = server.delete(&path, Some(&gmo_store::new_token())).await;
    assert_eq!(unknown.status, 401, "{}", unknown.text);
    let bare = server.delete(&path, None).await;
    assert_eq!(bare.status, 401, "{}", bare.text);
    let withdrawn = server.delete(&path, Some(&token)).await;
    assert_eq!(withdrawn.status, 204, "{}", withdrawn.text);
    assert_eq!(outcome(&mut lines).await["type"], "withdrawn");
    assert_eq!(server.delete(&path, Some(&token)).await.status, 404);
    let accept = server
        .post(&format!("{path}/accept"), None, json!({}))
        .await;
    assert_eq!(accept.status, 404, "{}", accept.text);
    // A matching seek now finds nobody: it waits.
    let (late, late_token) = seek(&server, five_zero("random")).await;
    let mut late_lines = follow(&server, &late, &late_token).await;
    let (line, text) = late_lines.next().await.expect("a line");
    assert_eq!(line["type"], "waiting", "{text}");
    let ids: Vec<Value> = listed(&server)
        .await
        .iter()
        .map(|s| s["id"].clone())
        .collect();
    assert_eq!(ids, [json!(late), json!(other)]);
}

async fn a_seek_whose_stream_is_gone_is_withdrawn_after_10_s(server: Server) {
    let (quiet, quiet_token) = seek(&server, five_zero("random")).await;
    let mut lines = follow(&server, &quiet, &quiet_token).await;
    assert_eq!(lines.next().await.expect("a line").0["type"], "waiting");
    drop(lines);
    tokio::time::sleep(Duration::from_secs(7)).await;
    assert_eq!(listed(&server).await.len(), 1, "still within its 10 s");
    tokio::time::sleep(Duration::from_secs(6)).await;
    assert!(
        listed(&server).await.is_empty(),
        "withdrawn after 10 s quiet"
    );
    let (late, late_token) = seek(&server, five_zero("random")).await;
    let mut late_lines = follow(&server, &late, &late_token).await;
    assert_eq!(
        late_lines.next().await.expect("a line").0["type"],
        "waiting"
    );
    let accept = server
        .post(&format!("/api/seeks/{quiet}/accept"), None, json!({}))
        .await;
    assert_eq!(accept.status, 404, "{}", accept.text);
}

async fn bad_seeks_get_4xx_and_store_nothing(server: Server) {
    let refused = [
        (json!({}), "invalid_field"),
        (json!({"clock": {}}), "invalid_field"),
        (json!({"clock": {"initial_ms": 0}}), "bad_settings"),
        (
            json!({"clock": {"initial_ms": 60_000, "increment_ms": -1}}),
            "",
        ),
        (
            json!({"clock": {"initial_ms": 60_000}, "width": 9}),
            "bad_settings",
        ),
        (
            json!({"clock": {"initial_ms": 60_000}, "color": "green"}),
            "invalid_field",
        ),
        (
            json!({"clock": {"initial_ms": 60_000}, "colour": "white"}),
            "invalid_field",
        ),
        (json!({"clock": {"initial_ms": 1.5}}), "invalid_field"),
    ];
    for (body, code) in refused {
        let answer = server.post("/api/seeks", None, body.clone()).await;
        assert_eq!(answer.status, 422, "{body}: {}", answer.text);
        let got = answer.body["error"]["code"].as_str().unwrap_or_default();
        assert!(code.is_empty() || got == code, "{body}: {}", answer.text);
        assert!(
            !answer.body["error"]["message"]
                .as_str()
                .unwrap_or_default()
                .is_empty()
        );
    }
    let raw = server
        .raw(reqwest::Method::POST, "/api/seeks", None, "{")
        .await;
    assert_eq!(raw.status, 400, "{}", raw.text);
    assert!(listed(&server).await.is_empty(), "nothing was stored");
    // A client's open seeks are bounded (3 by default); two white wishes never pair.
    let mut open = Vec::new();
    for _ in 0..3 {
        open.push(seek(&server, five_zero("white")).await);
    }
    let fourth = server.post("/api/seeks", None, five_zero("white")).await;
    assert_eq!(fourth.status, 409, "{}", fourth.text);
    assert_eq!(fourth.body["error"]["code"], "seek_limit");
    assert_eq!(listed(&server).await.len(), 3);
    // Two streams per seek at most in one process.
    let (id, token) = &open[0];
    let _one = follow(&server, id, token).await;
    let _two = follow(&server, id, token).await;
    let third = server
        .get(&format!("/api/seeks/{id}/stream"), Some(token))
        .await;
    assert_eq!(third.status, 409, "{}", third.text);
    assert_eq!(third.body["error"]["code"], "too_many_streams");
    let foreign = server
        .get(&format!("/api/seeks/{id}/stream"), Some(&open[1].1))
        .await;
    assert_eq!(foreign.status, 403, "{}", foreign.text);
}
