//! Finding 4: a stream of an unknown game leaves nothing behind, a game's hub channel goes with
//! its last stream, and a flag timer goes with its game, also when the game ended elsewhere.

use super::eventually;
use crate::common::Server;
use crate::{new_game, set_up};
use futures_util::StreamExt;
use serde_json::json;
use std::time::Duration;

both!(
    streams_of_unknown_and_real_games_leave_the_hub_empty,
    timers_go_with_their_games,
);

/// How many requests run at once.
const AT_ONCE: usize = 16;

async fn streams_of_unknown_and_real_games_leave_the_hub_empty(server: Server) {
    let unknown = futures_util::stream::iter(0..2_000)
        .map(|_| async {
            let path = format!("/api/games/{}/stream", gmo_store::new_id());
            server.get(&path, None).await
        })
        .buffer_unordered(AT_ONCE)
        .collect::<Vec<_>>()
        .await;
    assert!(unknown.iter().all(|answer| answer.status == 404));
    assert_eq!(
        server.app.play.games.hub().len(),
        0,
        "no channel for a game that is not"
    );

    // 200 real games, five streams each, opened (first line read) and closed.
    let mut ids = Vec::new();
    for _ in 0..200 {
        ids.push(new_game(&server, json!({})).await.0);
    }
    let server = &server;
    let opened = futures_util::stream::iter(ids.iter().cycle().take(1_000).cloned())
        .map(|id: String| async move {
            let mut stream = server.stream(&id, None).await;
            stream.next().await.expect("the first line").0
        })
        .buffer_unordered(AT_ONCE)
        .collect::<Vec<_>>()
        .await;
    assert_eq!(opened.len(), 1_000);
    assert!(opened.iter().all(|view| view["status"] == "setup"));
    let gone = eventually(Duration::from_secs(10), || {
        server.app.play.games.hub().is_empty()
    })
    .await;
    assert!(
        gone,
        "the hub still has {} channels after every stream closed",
        server.app.play.games.hub().len()
    );
}

/// Running games arm a timer each in the process that changed them last; the timer goes when
/// its game ends, there or (the test's second half) in another process.
async fn timers_go_with_their_games(server: Server) {
    let mut started = Vec::new();
    for _ in 0..20 {
        started.push(started_game(&server).await);
    }
    assert_eq!(
        server.app.play.games.timers().len(),
        20,
        "one timer per running game"
    );
    for (id, white, _) in &started {
        resign(&server, id, white).await;
    }
    assert_eq!(
        server.app.play.games.timers().len(),
        0,
        "ended games have no timer"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_timer_goes_when_its_game_ends_in_another_process() {
    crate::common::two_on_postgres(|one, two| async move {
        let mut started = Vec::new();
        for _ in 0..20 {
            started.push(started_game(&one).await);
        }
        assert_eq!(
            one.app.play.games.timers().len(),
            20,
            "one timer per running game"
        );
        for (id, white, _) in &started {
            resign(&two, id, white).await;
        }
        let gone = eventually(Duration::from_secs(10), || {
            one.app.play.games.timers().is_empty()
        })
        .await;
        assert!(
            gone,
            "{} timers of games ended elsewhere are still armed",
            one.app.play.games.timers().len()
        );
    })
    .await;
}

/// A new game started on the default preset → (id, White's token, Black's token).
async fn started_game(server: &Server) -> (String, String, String) {
    let (id, white, black, _) = new_game(server, json!({})).await;
    set_up(server, &id, &white, "default", "d1").await;
    set_up(server, &id, &black, "default", "d8").await;
    (id, white, black)
}

async fn resign(server: &Server, id: &str, token: &str) {
    let resigned = server
        .post(&format!("/api/games/{id}/resign"), Some(token), json!({}))
        .await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
}
