//! Finding 10: a stream in one process, the game started in another. Each line's type must say
//! what its game shows: a `setup` line shows a game in setup, and the start is a `start` line.

use crate::common::Server;
use crate::{new_game, prepare};
use serde_json::{Value, json};
use std::time::Duration;

/// Games tried: the race between the relay's reload and the next commit is won or lost each time.
const TRIES: usize = 12;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_stream_labels_a_start_in_another_process_as_the_start() {
    crate::common::two_on_postgres(|one, two| async move {
        for _ in 0..TRIES {
            check_one_start(&one, &two).await;
        }
    })
    .await;
}

async fn check_one_start(one: &Server, two: &Server) {
    let (id, white, black, _) = new_game(one, json!({})).await;
    prepare(one, &id, &white, "default", "d1").await;
    prepare(one, &id, &black, "default", "d8").await;
    let mut stream = two.stream(&id, None).await;
    stream.next().await.expect("the first line");
    // Both ready at once: two commits back to back, the second of which starts the game.
    let path = format!("/api/games/{id}/ready");
    let (a, b) = tokio::join!(
        one.post(&path, Some(&white), json!({})),
        one.post(&path, Some(&black), json!({}))
    );
    assert_eq!((a.status, b.status), (200, 200));
    let mut lines: Vec<Value> = Vec::new();
    while !lines
        .iter()
        .any(|line| line["game"]["status"] == "in_progress")
    {
        let (line, _) = stream
            .next_within(Duration::from_secs(5))
            .await
            .expect("a line");
        lines.push(line);
    }
    let seen: Vec<(&Value, &Value)> = lines
        .iter()
        .map(|line| (&line["type"], &line["game"]["status"]))
        .collect();
    for (kind, shown) in &seen {
        let expected = if *shown == "setup" { "setup" } else { "start" };
        assert_eq!(
            *kind, expected,
            "(type, status shown) of each line: {seen:?}"
        );
    }
    let resigned = one
        .post(&format!("/api/games/{id}/resign"), Some(&white), json!({}))
        .await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
}
