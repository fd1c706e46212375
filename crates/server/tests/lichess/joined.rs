//! `seats.<color>.joined`: whether a seat's holder has opened the game, stored (so that a restart
//! or another process knows it) and announced on the stream with a `joined` line.

use crate::common::{Lines, Server};
use crate::new_game;
use serde_json::{Value, json};
use std::time::Duration;

both!(
    a_seat_joins_when_its_token_first_opens_the_game,
    acting_with_a_token_joins_its_seat_and_bots_are_always_there,
    a_seat_stays_joined_in_the_answers_to_the_other_seat,
);

/// Each seat's `joined` in a view.
fn joined(view: &Value) -> (bool, bool) {
    let flag = |color: &str| {
        view["seats"][color]["joined"]
            .as_bool()
            .unwrap_or_else(|| panic!("seats.{color}.joined in {view}"))
    };
    (flag("white"), flag("black"))
}

/// The next line, which must come within 5 s.
async fn line(stream: &mut Lines) -> Value {
    stream
        .next_within(Duration::from_secs(5))
        .await
        .expect("a line")
        .0
}

async fn a_seat_joins_when_its_token_first_opens_the_game(server: Server) {
    let (id, white, black, created) = new_game(&server, json!({})).await;
    assert_eq!(joined(&created["game"]), (false, false), "nobody yet");
    let path = format!("/api/games/{id}");
    assert_eq!(joined(&server.get(&path, None).await.body), (false, false));

    // White's page opens its stream: White's seat is taken, Black's is not.
    let mut white_stream = server.stream(&id, Some(&white)).await;
    let first = line(&mut white_stream).await;
    assert_eq!(joined(&first), (true, false), "{first}");
    let mut watcher = server.stream(&id, None).await;
    let watched = line(&mut watcher).await;
    assert_eq!(joined(&watched), (true, false), "{watched}");

    // A token for another game opens nothing, and joins nothing.
    let (_, stranger, _, _) = new_game(&server, json!({})).await;
    assert_eq!(server.get(&path, Some(&stranger)).await.status, 403);
    assert_eq!(joined(&server.get(&path, None).await.body), (true, false));

    // Black opens the invite: its answer, White's stream and the spectator's say so at once.
    let opened = server.get(&path, Some(&black)).await;
    assert_eq!(opened.status, 200, "{}", opened.text);
    assert_eq!(joined(&opened.body), (true, true));
    for stream in [&mut white_stream, &mut watcher] {
        let news = line(stream).await;
        assert_eq!(news["type"], "joined", "{news}");
        assert_eq!(news["version"], 0, "no change of the game: {news}");
        assert_eq!(joined(&news["game"]), (true, true), "{news}");
        assert_eq!(news["game"]["status"], "setup");
    }
    assert_eq!(first["you"], "white");

    // Opening it again says nothing new: the next line is White's preset.
    assert_eq!(server.get(&path, Some(&black)).await.status, 200);
    let mut black_stream = server.stream(&id, Some(&black)).await;
    assert_eq!(joined(&line(&mut black_stream).await), (true, true));
    let loaded = server
        .put(
            &format!("/api/games/{id}/preset"),
            Some(&white),
            json!({"preset": "default"}),
        )
        .await;
    assert_eq!(loaded.status, 200, "{}", loaded.text);
    assert_eq!(joined(&loaded.body), (true, true));
    let next = line(&mut white_stream).await;
    assert_eq!(next["type"], "setup", "{next}");
    assert_eq!(joined(&next["game"]), (true, true));

    // Stored: another server on the same database (a restart, another process) knows it.
    let settings = gmo_server::Settings::new(([127, 0, 0, 1], 0).into(), &server.url);
    let other = gmo_server::spawn(settings)
        .await
        .expect("another server starts");
    let seen = reqwest::get(format!("http://{}{path}", other.addr()))
        .await
        .expect("it answers")
        .json::<Value>()
        .await
        .expect("a view");
    assert_eq!(joined(&seen), (true, true), "{seen}");
    other.shutdown().await.expect("it stops");
}

async fn acting_with_a_token_joins_its_seat_and_bots_are_always_there(server: Server) {
    // A client that only acts (no read first) has opened the game too.
    let (id, white, black, _) = new_game(&server, json!({})).await;
    let loaded = server
        .put(
            &format!("/api/games/{id}/preset"),
            Some(&black),
            json!({"preset": "default"}),
        )
        .await;
    assert_eq!(loaded.status, 200, "{}", loaded.text);
    assert_eq!(joined(&loaded.body), (false, true), "{}", loaded.text);
    let seen = server.get(&format!("/api/games/{id}"), None).await;
    assert_eq!(joined(&seen.body), (false, true));
    // A refused request with a seat's token still shows that the seat is in use.
    let early = server
        .post(&format!("/api/games/{id}/resign"), Some(&white), json!({}))
        .await;
    assert_eq!(early.status, 409, "{}", early.text);
    let seen = server.get(&format!("/api/games/{id}"), None).await;
    assert_eq!(joined(&seen.body), (true, true));

    // A bot's seat is taken from the start; the person's is not until it opens the game.
    let created = server
        .post("/api/games", None, json!({"black": "bot:random"}))
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    assert_eq!(joined(&created.body["game"]), (false, true));
    let id = created.body["id"].as_str().expect("an id");
    let seen = server.get(&format!("/api/games/{id}"), None).await;
    assert_eq!(joined(&seen.body), (false, true));
}

/// Both seats set up with their tokens (no read): every later answer and stream line shows both
/// joined, whichever seat acts (a seat's own change must not hide the other's join).
async fn a_seat_stays_joined_in_the_answers_to_the_other_seat(server: Server) {
    let (id, white, black) = crate::lichess::started(&server, json!({})).await;
    let mut watcher = server.stream(&id, None).await;
    assert_eq!(joined(&line(&mut watcher).await), (true, true));
    for (token, from, to) in [
        (&white, "a2", "a3"),
        (&black, "a7", "a6"),
        (&white, "h2", "h3"),
    ] {
        let moved = crate::play(&server, &id, token, from, to).await;
        assert_eq!(joined(&moved["game"]), (true, true), "{from}{to}");
        let news = line(&mut watcher).await;
        assert_eq!(news["type"], "move", "{news}");
        assert_eq!(joined(&news["game"]), (true, true), "{news}");
    }
}

/// A seat opening the game through one process reaches a stream on another, and neither
/// process's cache hides it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_seat_joining_on_one_process_reaches_a_stream_on_another() {
    crate::common::two_on_postgres(|one, two| async move {
        let (id, white, black, _) = new_game(&one, json!({})).await;
        let mut stream = two.stream(&id, Some(&white)).await;
        assert_eq!(joined(&line(&mut stream).await), (true, false));
        let opened = one.get(&format!("/api/games/{id}"), Some(&black)).await;
        assert_eq!(opened.status, 200, "{}", opened.text);
        let news = line(&mut stream).await;
        assert_eq!(news["type"], "joined", "{news}");
        assert_eq!(joined(&news["game"]), (true, true), "{news}");
        // The first process's cache does not hide it either.
        let seen = one.get(&format!("/api/games/{id}"), None).await;
        assert_eq!(joined(&seen.body), (true, true));
        let seen = two.get(&format!("/api/games/{id}"), None).await;
        assert_eq!(joined(&seen.body), (true, true));
    })
    .await;
}
