//! `POST /api/games/{id}/rematch`: both seats ask after the end → one new game, colours swapped,
//! each seat's stream told its own new token.

use super::rest_of;
use crate::common::{Lines, Server};
use crate::new_game;
use serde_json::{Value, json};
use std::time::Duration;

both!(
    both_seats_ask_and_a_swapped_game_starts,
    a_bot_accepts_a_rematch_at_once,
    a_rematch_is_refused_before_the_end_and_to_strangers,
);

async fn abort(server: &Server, id: &str, token: &str) {
    let resigned = server
        .post(&format!("/api/games/{id}/abort"), Some(token), json!({}))
        .await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
}

async fn ask(server: &Server, id: &str, token: &str) -> Value {
    let asked = server
        .post(&format!("/api/games/{id}/rematch"), Some(token), json!({}))
        .await;
    assert_eq!(asked.status, 200, "{}", asked.text);
    asked.body
}

/// The next line, which must come within 5 s.
async fn line(stream: &mut Lines) -> Value {
    stream
        .next_within(Duration::from_secs(5))
        .await
        .expect("a line")
        .0
}

/// The game's settings as its view shows them.
fn settings(view: &Value) -> Value {
    json!([
        view["width"],
        view["height"],
        view["clocks"]["increment_ms"]
    ])
}

async fn both_seats_ask_and_a_swapped_game_starts(server: Server) {
    let body =
        json!({"width": 8, "height": 6, "clock": {"initial_ms": 120_000, "increment_ms": 3_000}});
    let (id, white, black, created) = new_game(&server, body).await;
    abort(&server, &id, &black).await;
    let mut white_stream = server.stream(&id, Some(&white)).await;
    let mut black_stream = server.stream(&id, Some(&black)).await;
    assert_eq!(line(&mut white_stream).await["status"], "aborted");
    line(&mut black_stream).await;

    let first = ask(&server, &id, &white).await;
    assert_eq!(
        first,
        json!({"asked": {"white": true, "black": false}, "game": null, "token": null})
    );
    let again = ask(&server, &id, &white).await;
    assert_eq!(again, first, "asking again changes nothing");
    for stream in [&mut white_stream, &mut black_stream] {
        assert_eq!(
            line(stream).await,
            json!({"type": "rematch_offer", "color": "white"})
        );
    }

    let both = ask(&server, &id, &black).await;
    let game = both["game"].as_str().expect("the new game").to_owned();
    assert_ne!(game, id);
    assert_eq!(both["asked"], json!({"white": true, "black": true}));
    let black_token = both["token"]
        .as_str()
        .expect("Black's new token")
        .to_owned();
    let white_line = line(&mut white_stream).await;
    let black_line = line(&mut black_stream).await;
    assert_eq!(
        (&white_line["type"], &white_line["game"]),
        (&json!("rematch"), &json!(game))
    );
    assert_eq!(black_line["token"], json!(black_token));
    let white_token = white_line["token"]
        .as_str()
        .expect("White's new token")
        .to_owned();
    assert_ne!(white_token, black_token);
    assert_ne!(white_token, white);
    assert!(
        white_stream.next().await.is_none(),
        "closed after the rematch"
    );
    assert!(
        black_stream.next().await.is_none(),
        "closed after the rematch"
    );

    // Colours swapped, settings kept; each token opens its own seat only.
    let path = format!("/api/games/{game}");
    let as_old_white = server.get(&path, Some(&white_token)).await;
    assert_eq!(as_old_white.status, 200, "{}", as_old_white.text);
    assert_eq!(as_old_white.body["you"], "black");
    assert_eq!(as_old_white.body["status"], "setup");
    assert_eq!(settings(&as_old_white.body), settings(&created["game"]));
    assert_eq!(settings(&as_old_white.body), json!([8, 6, 3000]));
    assert_eq!(as_old_white.body["clocks"]["white_ms"], 120_000);
    let as_old_black = server.get(&path, Some(&black_token)).await;
    assert_eq!(as_old_black.body["you"], "white");
    let old = server
        .get(&format!("/api/games/{id}"), Some(&white_token))
        .await;
    assert_eq!(old.status, 403, "a new token opens only the new game");

    // Later asks and later streams give the same game.
    let late = ask(&server, &id, &white).await;
    assert_eq!(
        (&late["game"], &late["token"]),
        (&json!(game), &json!(white_token))
    );
    let mut late_stream = server.stream(&id, Some(&white)).await;
    let lines = rest_of(&mut late_stream, Duration::from_secs(5)).await;
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(
        lines[3],
        json!({"type": "rematch", "game": game, "token": white_token})
    );
    // A spectator's stream still closes after the first line.
    let mut spectator = server.stream(&id, None).await;
    assert_eq!(
        rest_of(&mut spectator, Duration::from_secs(5)).await.len(),
        1
    );
}

async fn a_bot_accepts_a_rematch_at_once(server: Server) {
    let (created, id) = {
        let answer = server
            .post("/api/games", None, json!({"black": "bot:random"}))
            .await;
        assert_eq!(answer.status, 201, "{}", answer.text);
        let id = answer.body["id"].as_str().expect("an id").to_owned();
        (answer.body, id)
    };
    let white = created["seats"]["white"]["token"]
        .as_str()
        .expect("a token");
    abort(&server, &id, white).await;
    let asked = ask(&server, &id, white).await;
    assert_eq!(asked["asked"], json!({"white": true, "black": true}));
    let game = asked["game"].as_str().expect("started at once");
    let token = asked["token"].as_str().expect("a token");
    let view = server.get(&format!("/api/games/{game}"), Some(token)).await;
    assert_eq!(view.status, 200, "{}", view.text);
    assert_eq!(view.body["you"], "black");
    assert_eq!(
        view.body["seats"]["white"]["ready"], true,
        "the bot plays White now"
    );
    assert_eq!(view.body["seats"]["black"]["ready"], false);
}

async fn a_rematch_is_refused_before_the_end_and_to_strangers(server: Server) {
    let (id, white, _, _) = new_game(&server, json!({})).await;
    let path = format!("/api/games/{id}/rematch");
    let early = server.post(&path, Some(&white), json!({})).await;
    assert_eq!(early.status, 409, "{}", early.text);
    assert_eq!(early.body["error"]["code"], "not_over");
    let (other, other_white, _, _) = new_game(&server, json!({})).await;
    abort(&server, &other, &other_white).await;
    let foreign = server.post(&path, Some(&other_white), json!({})).await;
    assert_eq!(foreign.status, 403, "{}", foreign.text);
    let anonymous = server.post(&path, None, json!({})).await;
    assert_eq!(anonymous.status, 401, "{}", anonymous.text);
    let missing = server
        .post(
            "/api/games/00000000000000000000000000000000/rematch",
            Some(&white),
            json!({}),
        )
        .await;
    assert_eq!(missing.status, 404, "{}", missing.text);
    let still = server.post(&path, Some(&white), json!({})).await;
    assert_eq!(still.status, 409, "nothing was recorded: {}", still.text);
}

/// Both seats ask at the same moment on two processes: one game, both told of it, and a stream
/// on either process gets its line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_two_processes_make_one_rematch() {
    crate::common::two_on_postgres(|one, two| async move {
        for _ in 0..5 {
            let (id, white, black, _) = new_game(&one, json!({})).await;
            abort(&one, &id, &white).await;
            let mut white_stream = two.stream(&id, Some(&white)).await;
            line(&mut white_stream).await;
            let (a, b) = tokio::join!(ask(&one, &id, &white), ask(&two, &id, &black));
            let game = if a["game"].is_string() {
                &a["game"]
            } else {
                &b["game"]
            };
            assert!(game.is_string(), "{a} {b}");
            for answer in [&a, &b] {
                assert!(answer["game"] == *game || answer["game"].is_null());
            }
            let mut seen = Vec::new();
            while let Some((line, _)) = white_stream.next_within(Duration::from_secs(5)).await {
                seen.push(line);
            }
            let last = seen.last().expect("a rematch line");
            assert_eq!(
                (&last["type"], &last["game"]),
                (&json!("rematch"), game),
                "{seen:?}"
            );
            let view = one
                .get(
                    &format!("/api/games/{}", game.as_str().expect("id")),
                    last["token"].as_str(),
                )
                .await;
            assert_eq!(view.body["you"], "black", "{}", view.text);
            // Asking again on either process gives the same game.
            let again = ask(&two, &id, &white).await;
            assert_eq!(&again["game"], game);
        }
    })
    .await;
}
