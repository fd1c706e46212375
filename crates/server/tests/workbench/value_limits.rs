//! The limits of value evaluations: a deployment-wide queue (503 beyond it), asks counted as
//! creations (429), and a deployment-wide cap on evaluations running at once, held in the
//! database. This server runs none itself (`max_value_jobs` 0), so what is queued stays queued.

use crate::common::Server;
use gmo_server::Settings;
use gmo_types::EvaluationState;
use gmo_types::{Millis, Timestamp};
use serde_json::json;

fn queue_only(settings: &mut Settings) {
    settings.play.max_value_jobs = 0;
    settings.play.max_value_queue = 2;
    settings.rate_limit = 5;
}

both_with!(super::queue_only;
    asks_are_queued_within_the_queue_and_count_as_creations,
    the_running_cap_holds_in_the_database_and_lapsed_leases_are_taken_over,
);

async fn asks_are_queued_within_the_queue_and_count_as_creations(server: Server) {
    for name in ["rook", "queen"] {
        let started = server
            .post(&format!("/api/genomes/{name}/value"), None, json!({}))
            .await;
        assert_eq!(started.status, 201, "{}", started.text);
        assert_eq!(started.body["state"], "queued");
        assert_eq!(started.body["played"], 0);
        assert_eq!(started.body["estimate"], serde_json::Value::Null);
    }
    // The queue holds two: a third genome is refused, and nothing is stored for it.
    let full = server
        .post("/api/genomes/bishop/value", None, json!({}))
        .await;
    assert_eq!(full.status, 503, "{}", full.text);
    assert_eq!(full.body["error"]["code"], "unavailable");
    assert!(
        full.body["error"]["message"]
            .as_str()
            .expect("a message")
            .contains("at most 2 genomes"),
        "{}",
        full.text
    );
    let none = server.get("/api/genomes/bishop/value", None).await;
    assert_eq!(none.status, 404, "{}", none.text);
    // Joining one that is queued is no new evaluation: 200, however full the queue.
    let joined = server
        .post("/api/genomes/rook/value", None, json!({}))
        .await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    assert_eq!(joined.body["state"], "queued");
    // A queued evaluation's stream starts with its progress.
    let mut lines = server
        .stream_at("/api/genomes/queen/value/stream", None)
        .await;
    let (line, text) = lines.next().await.expect("a first line");
    assert_eq!(line["type"], "progress", "{text}");
    assert_eq!(line["value"]["state"], "queued", "{text}");
    // Five creations a minute from this address: four asks so far, one more, then 429.
    let fifth = server
        .post("/api/genomes/rook/value", None, json!({}))
        .await;
    assert_eq!(fifth.status, 200, "{}", fifth.text);
    let sixth = server
        .post("/api/genomes/rook/value", None, json!({}))
        .await;
    assert_eq!(sixth.status, 429, "{}", sixth.text);
    assert_eq!(sixth.body["error"]["code"], "rate_limited");
}

async fn the_running_cap_holds_in_the_database_and_lapsed_leases_are_taken_over(server: Server) {
    let store = &server.app.play.store();
    for name in ["rook", "queen"] {
        let started = server
            .post(&format!("/api/genomes/{name}/value"), None, json!({}))
            .await;
        assert_eq!(started.status, 201, "{}", started.text);
    }
    let now = Timestamp::from_ms(1_000_000);
    // One at a time in the deployment: a second process gets nothing while the first's lease
    // holds, though another evaluation waits.
    let first = store
        .claim_value_job("one", now, now + Millis::from_ms(5_000), 1)
        .await
        .expect("claim")
        .expect("the oldest");
    assert_eq!(first.state, EvaluationState::Running);
    assert_eq!(first.holder.as_deref(), Some("one"));
    let refused = store
        .claim_value_job(
            "two",
            now + Millis::from_ms(1_000),
            now + Millis::from_ms(6_000),
            1,
        )
        .await
        .expect("claim");
    assert_eq!(refused, None);
    // Two at a time: the second process takes the other one.
    let second = store
        .claim_value_job(
            "two",
            now + Millis::from_ms(1_000),
            now + Millis::from_ms(6_000),
            2,
        )
        .await
        .expect("claim")
        .expect("the other");
    assert_ne!(second.code, first.code);
    // Once the first lease has lapsed, another process takes that evaluation over; the old
    // holder can neither renew nor count any more.
    let later = now + Millis::from_ms(5_001);
    let taken = store
        .claim_value_job("three", later, later + Millis::from_ms(5_000), 2)
        .await
        .expect("claim")
        .expect("the lapsed one");
    assert_eq!(taken.code, first.code);
    assert!(
        !store
            .renew_job_lease(first.id, "one", later + Millis::from_ms(9_000))
            .await
            .expect("renew")
    );
    let stale = gmo_store::ValueGames {
        wins: 1,
        draws: 0,
        losses: 0,
    };
    assert!(
        !store
            .count_value_games(
                &first.code,
                "one",
                0,
                stale,
                later + Millis::from_ms(9_000),
                later
            )
            .await
            .expect("count")
    );
    // A count that does not start where the stored one ends is refused too.
    assert!(
        !store
            .count_value_games(
                &first.code,
                "three",
                3,
                stale,
                later + Millis::from_ms(9_000),
                later
            )
            .await
            .expect("count")
    );
    assert!(
        store
            .count_value_games(
                &first.code,
                "three",
                0,
                stale,
                later + Millis::from_ms(9_000),
                later
            )
            .await
            .expect("count")
    );
    // A stopping process puts what it runs back in the queue.
    assert_eq!(store.release_jobs("three").await.expect("release"), 1);
    let back = store
        .value_job(&first.code)
        .await
        .expect("read")
        .expect("kept");
    assert_eq!(
        (back.state, back.holder.clone(), back.played()),
        (EvaluationState::Queued, None, 1)
    );
}
