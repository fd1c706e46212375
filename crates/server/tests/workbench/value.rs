//! `POST/GET /api/genomes/{reference}/value` and its stream: a genome's value evaluated once in
//! the background, with 4 games an evaluation so that it ends quickly; the games counted are the
//! ones `gmo_bots::value` plays for the same seed, and an evaluation left by a dead process is
//! taken over from its count.

use crate::common::Server;
use gmo_bots::value::{DEFAULT_BOT, Tally, Trial};
use gmo_server::Settings;
use gmo_store::{Asked, NewValueJob, Store, ValueGames};
use gmo_types::{EvaluationState, Millis};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const GAMES: u32 = 4;

fn four_games(settings: &mut Settings) {
    settings.play.value_games = GAMES;
    settings.play.max_value_jobs = 1;
    settings.play.max_value_queue = 4;
}

both_with!(super::four_games;
    a_value_evaluation_runs_once_streams_its_progress_and_is_kept,
    an_unknown_genome_or_a_bad_reference_is_refused,
);

/// What `gmo_bots::value` makes of `name`'s first `games` games with the service's settings.
fn expected(name: &str, games: std::ops::Range<u32>) -> Tally {
    let genome = gmo_genome::standard::by_name(name).expect("standard");
    let bot = DEFAULT_BOT.parse().expect("bot");
    let trial = Trial::new(genome, "knight", bot, 1).expect("trial");
    trial.run(games, 1, |_| {}).expect("games")
}

fn tally_of(value: &Value) -> Tally {
    let count = |key: &str| value[key].as_u64().expect("a count") as u32;
    Tally {
        wins: count("wins"),
        draws: count("draws"),
        losses: count("losses"),
    }
}

async fn a_value_evaluation_runs_once_streams_its_progress_and_is_kept(server: Server) {
    let never = server.get("/api/genomes/rook/value", None).await;
    assert_eq!(never.status, 404, "{}", never.text);
    assert_eq!(never.body["error"]["code"], "not_found");
    assert!(never.text.contains("POST"), "{}", never.text);

    let started = server
        .post("/api/genomes/Rook/value", None, json!({}))
        .await;
    assert_eq!(started.status, 201, "{}", started.text);
    let code = gmo_genome::standard::by_name("rook")
        .expect("rook")
        .code()
        .to_string();
    assert_eq!(started.body["code"], code);
    assert_eq!(started.body["games"], GAMES);
    assert_eq!(started.body["replaced"], "knight");
    assert_eq!(started.body["bot"], DEFAULT_BOT);
    assert_eq!(started.body["seed"], 1);
    assert!(
        ["queued", "running"].contains(&started.body["state"].as_str().expect("a state")),
        "{}",
        started.text
    );

    // The stream: progress lines with the games counted so far, then `done` with the result.
    // (4 games are one batch, so the count jumps from 0 to 4.)
    let mut lines = server
        .stream_at(&format!("/api/genomes/{code}/value/stream"), None)
        .await;
    let mut played = Vec::new();
    let last = loop {
        let (line, text) = lines
            .next_within(Duration::from_secs(60))
            .await
            .expect("a line before the end");
        played.push(line["value"]["played"].as_u64().expect("played"));
        match line["type"].as_str() {
            Some("progress") => assert_ne!(line["value"]["state"], "done", "{text}"),
            Some("done") => break line,
            other => panic!("unexpected line {other:?}: {text}"),
        }
    };
    assert!(
        lines.next().await.is_none(),
        "the stream closes after `done`"
    );
    // A line when games are counted or the state changes (queued → running → done).
    assert!(played.windows(2).all(|w| w[0] <= w[1]), "{played:?}");
    assert_eq!(played.last(), Some(&u64::from(GAMES)));

    let value = &last["value"];
    assert_eq!(value["state"], "done");
    assert_eq!(tally_of(value), expected("rook", 0..GAMES), "{value}");
    let estimate = &value["estimate"];
    let pawns = estimate["pawns"].as_f64().expect("pawns");
    let (low, high) = (
        estimate["pawns_low"].as_f64().expect("low"),
        estimate["pawns_high"].as_f64().expect("high"),
    );
    assert!(low <= pawns && pawns <= high, "{estimate}");
    let margin = estimate["margin"].as_f64().expect("margin");
    assert!((margin - (high - low) / 2.0).abs() < 0.011, "{estimate}");

    // Kept with the genome: asking again joins the result, by name or by code, and nothing runs.
    for reference in ["rook", code.as_str()] {
        let again = server
            .post(&format!("/api/genomes/{reference}/value"), None, json!({}))
            .await;
        assert_eq!(again.status, 200, "{}", again.text);
        assert_eq!(again.body, *value);
        let shown = server
            .get(&format!("/api/genomes/{reference}/value"), None)
            .await;
        assert_eq!((shown.status, &shown.body), (200, value));
    }
    let job = server
        .app
        .play
        .store()
        .value_job(&code)
        .await
        .expect("read")
        .expect("stored");
    assert_eq!(
        (job.state, job.holder.clone(), job.played()),
        (EvaluationState::Done, None, GAMES)
    );

    // A done evaluation's stream says `done` at once and closes.
    let mut done = server
        .stream_at("/api/genomes/rook/value/stream", None)
        .await;
    let (line, _) = done.next().await.expect("a line");
    assert_eq!((&line["type"], &line["value"]), (&json!("done"), value));
    assert!(done.next().await.is_none());
}

async fn an_unknown_genome_or_a_bad_reference_is_refused(server: Server) {
    let unknown = server
        .post("/api/genomes/zzzzzz/value", None, json!({}))
        .await;
    assert_eq!(unknown.status, 404, "{}", unknown.text);
    assert_eq!(unknown.body["error"]["what"], "genome");
    let bad = server.get("/api/genomes/a%20b/value", None).await;
    assert_eq!(bad.status, 400, "{}", bad.text);
    assert_eq!(bad.body["error"]["code"], "bad_path");
    let stream = server.get("/api/genomes/queen/value/stream", None).await;
    assert_eq!(stream.status, 404, "never asked for: {}", stream.text);
    let wrong = server
        .call(
            reqwest::Method::DELETE,
            "/api/genomes/rook/value",
            None,
            None,
        )
        .await;
    assert_eq!(wrong.status, 405, "{}", wrong.text);
}

/// A process asked for the queen's value, claimed it, counted 2 of its 4 games and died (its
/// lease ran out). A server started on that database takes it over and plays games 2 and 3 only.
async fn taken_over(url: String) {
    let store = Store::connect(&url).await.expect("the store");
    let queen = gmo_genome::standard::by_name("queen").expect("queen");
    let code = queen.code().to_string();
    let now = gmo_play::now();
    let new = NewValueJob {
        code: &code,
        replaced: "knight",
        bot: DEFAULT_BOT,
        seed: 1,
        games: GAMES,
    };
    let asked = store.ask_value(&new, now, 4).await.expect("asked");
    assert!(matches!(asked, Asked::Started(_)), "{asked:?}");
    let claimed = store
        .claim_value_job("dead-process", now, now + Millis::from_ms(60_000), 1)
        .await
        .expect("claimed")
        .expect("a job");
    assert_eq!(claimed.code, code);
    let first = expected("queen", 0..2);
    let counted = store
        .count_value_games(
            &code,
            "dead-process",
            0,
            ValueGames {
                wins: first.wins,
                draws: first.draws,
                losses: first.losses,
            },
            // The lease has run out: the process died right after counting.
            now - Millis::from_ms(1),
            now,
        )
        .await
        .expect("counted");
    assert!(counted);
    store.close().await;

    let mut settings = Settings::new(([127, 0, 0, 1], 0).into(), url.as_str());
    settings.play.sweep_interval = Duration::from_millis(250);
    four_games(&mut settings);
    let app = gmo_server::spawn(settings)
        .await
        .expect("the server starts");
    let store = app.state().play.store().clone();
    let deadline = Instant::now() + Duration::from_secs(60);
    let job = loop {
        let job = store.value_job(&code).await.expect("read").expect("kept");
        if job.state == EvaluationState::Done || Instant::now() > deadline {
            break job;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    app.shutdown().await.expect("stops");
    assert_eq!(job.state, EvaluationState::Done, "{job:?}");
    let total = expected("queen", 0..GAMES);
    assert_eq!(
        (job.wins, job.draws, job.losses),
        (total.wins, total.draws, total.losses),
        "games 2 and 3 added to the dead process's count"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_an_evaluation_left_by_a_dead_process_is_taken_over_from_its_count() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    taken_over(format!("sqlite://{}", dir.path().join("gmo.db").display())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_an_evaluation_left_by_a_dead_process_is_taken_over_from_its_count() {
    gmo_store::scratch::with_scratch_database("gmo_server_test", taken_over).await;
}
