//! Issue 35, analyses over HTTP on both backends: a short finished game analysed to `done` with
//! its progress, the same answer read twice, the refusals (403 discovery, 409 not over, 404), the
//! queue's bounds (429 per address, 503 in all), and a job whose holder died taken over once its
//! lease ran out.

use crate::common::Server;
use crate::contract::Contract;
use crate::{new_game, play, set_up};
use gmo_types::Timestamp;
use reqwest::Method;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

both_with!(
    super::small_budget;
    a_finished_game_is_analysed_once_with_its_progress,
    only_finished_games_outside_discovery_are_analysed,
    a_job_whose_holder_died_is_taken_over_after_its_lease,
);

mod discovery {
    both_with!(
        crate::analysis::discovery;
        a_discovery_game_is_not_analysed,
    );

    use super::a_discovery_game_is_not_analysed;
}

mod per_address {
    both_with!(
        crate::analysis::nobody_runs_one_per_address;
        an_address_has_a_bounded_queue,
    );

    use super::an_address_has_a_bounded_queue;
}

mod worker {
    both_with!(
        crate::analysis::nobody_runs_one_per_address;
        a_process_that_only_takes_jobs_analyses,
    );

    use super::a_process_that_only_takes_jobs_analyses;
}

mod in_all {
    both_with!(
        crate::analysis::nobody_runs_one_in_all;
        the_queue_is_bounded_in_all,
    );

    use super::the_queue_is_bounded_in_all;
}

/// Few nodes a position, so that a test's game is analysed in well under a second a position.
fn small_budget(settings: &mut gmo_server::Settings) {
    settings.play.analysis_nodes = 2_000;
}

fn discovery(settings: &mut gmo_server::Settings) {
    settings.play.discovery = true;
    small_budget(settings);
}

/// Nobody takes analyses (they stay queued); one per address.
fn nobody_runs_one_per_address(settings: &mut gmo_server::Settings) {
    settings.play.max_analyses = 0;
    settings.play.max_analyses_per_client = 1;
}

/// Nobody takes analyses; one in all.
fn nobody_runs_one_in_all(settings: &mut gmo_server::Settings) {
    settings.play.max_analyses = 0;
    settings.play.max_analysis_queue = 1;
}

/// An 8×8 game of three plies (e3, e6, d3) that Black resigns → its id.
pub(crate) async fn finished_game(server: &Server) -> String {
    let (id, white, black) = started_game(server).await;
    play(server, &id, &white, "e2", "e3").await;
    play(server, &id, &black, "e7", "e6").await;
    play(server, &id, &white, "d2", "d3").await;
    let resigned = server
        .post(&format!("/api/games/{id}/resign"), Some(&black), json!({}))
        .await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
    id
}

pub(crate) async fn started_game(server: &Server) -> (String, String, String) {
    let (id, white, black, _) = new_game(server, json!({})).await;
    set_up(server, &id, &white, "default", "d1").await;
    set_up(server, &id, &black, "default", "d8").await;
    (id, white, black)
}

fn bounds() -> gmo_store::JobBounds {
    gmo_store::JobBounds {
        open: 10,
        open_per_asker: 10,
    }
}

fn path(id: &str) -> String {
    format!("/api/games/{id}/analysis")
}

/// The documented path of both routes.
const DOCUMENTED: &str = "/api/games/{id}/analysis";

/// Reads the analysis until it is done (or 30 s pass) → every answer read, the last done; each
/// checked against the OpenAPI document.
async fn until_done(server: &Server, id: &str) -> Vec<Value> {
    let mut contract = Contract::of(server).await;
    let start = Instant::now();
    let mut seen = Vec::new();
    loop {
        let read = server.get(&path(id), None).await;
        assert_eq!(read.status, 200, "{}", read.text);
        contract.check(Method::GET, DOCUMENTED, &read);
        let state = read.body["state"].as_str().unwrap_or_default().to_owned();
        assert!(
            ["queued", "running", "done"].contains(&state.as_str()),
            "{}",
            read.text
        );
        seen.push(read.body);
        if state == "done" {
            return seen;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "not done: {seen:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Checks a done analysis of [`finished_game`]: 4 positions, 3 plies judged, both accuracies.
fn assert_whole(done: &Value) {
    assert_eq!(done["progress"], json!({"done": 4, "total": 4}), "{done}");
    let plies = done["plies"].as_array().expect("plies");
    assert_eq!(plies.len(), 3, "{done}");
    for (k, ply) in plies.iter().enumerate() {
        assert_eq!(ply["ply"], k + 1);
        let eval = &ply["eval"];
        assert!(eval["cp"].is_i64() || eval["mate"].is_i64(), "{ply}");
        assert!(
            ply["judgement"].is_null()
                || ["inaccuracy", "mistake", "blunder"]
                    .contains(&ply["judgement"].as_str().unwrap_or_default()),
            "{ply}"
        );
        if !ply["best"].is_null() {
            assert!(ply["best"]["from"].is_string() && ply["best"]["to"].is_string());
        }
    }
    for side in ["white", "black"] {
        let accuracy = done["accuracy"][side].as_f64().expect("an accuracy");
        assert!((0.0..=100.0).contains(&accuracy), "{done}");
    }
}

pub(crate) async fn a_finished_game_is_analysed_once_with_its_progress(server: Server) {
    let mut contract = Contract::of(&server).await;
    let id = finished_game(&server).await;
    let never = server.get(&path(&id), None).await;
    assert_eq!(never.status, 404, "never asked for: {}", never.text);
    contract.check(Method::GET, DOCUMENTED, &never);
    let asked = server.post(&path(&id), None, json!({})).await;
    assert_eq!(asked.status, 202, "{}", asked.text);
    contract.check(Method::POST, DOCUMENTED, &asked);
    assert_eq!(asked.body, json!({"state": "queued"}));
    let seen = until_done(&server, &id).await;
    let done = seen.last().expect("read");
    assert_whole(done);
    // Progress only grows, and never beyond the total.
    let progress: Vec<u64> = seen
        .iter()
        .map(|a| a["progress"]["done"].as_u64().expect("done"))
        .collect();
    assert!(progress.windows(2).all(|w| w[0] <= w[1]), "{progress:?}");
    // Read twice: the same answer; asked again: joined, done, nothing computed anew.
    let again = server.get(&path(&id), None).await;
    assert_eq!(&again.body, done);
    let joined = server.post(&path(&id), None, json!({})).await;
    assert_eq!(joined.status, 202, "{}", joined.text);
    assert_eq!(joined.body, json!({"state": "done"}));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(&server.get(&path(&id), None).await.body, done);
}

pub(crate) async fn only_finished_games_outside_discovery_are_analysed(server: Server) {
    let (id, white, _) = started_game(&server).await;
    play(&server, &id, &white, "e2", "e3").await;
    let playing = server.post(&path(&id), None, json!({})).await;
    assert_eq!(playing.status, 409, "{}", playing.text);
    assert_eq!(playing.body["error"]["code"], "not_over");
    Contract::of(&server)
        .await
        .check(Method::POST, DOCUMENTED, &playing);
    let nosuch = gmo_store::new_id();
    for method in ["POST", "GET"] {
        let missing = match method {
            "POST" => server.post(&path(&nosuch), None, json!({})).await,
            _ => server.get(&path(&nosuch), None).await,
        };
        assert_eq!(missing.status, 404, "{method}: {}", missing.text);
        assert_eq!(missing.body["error"]["code"], "not_found");
    }
    let read = server.get(&path(&id), None).await;
    assert_eq!(read.status, 404, "never asked for: {}", read.text);
}

pub(crate) async fn a_discovery_game_is_not_analysed(server: Server) {
    let id = finished_game(&server).await;
    let asked = server.post(&path(&id), None, json!({})).await;
    assert_eq!(asked.status, 403, "{}", asked.text);
    assert_eq!(asked.body["error"]["code"], "discovery");
    Contract::of(&server)
        .await
        .check(Method::POST, DOCUMENTED, &asked);
    let read = server.get(&path(&id), None).await;
    assert_eq!(read.status, 403, "{}", read.text);
}

pub(crate) async fn an_address_has_a_bounded_queue(server: Server) {
    let first = finished_game(&server).await;
    let second = finished_game(&server).await;
    let asked = server.post(&path(&first), None, json!({})).await;
    assert_eq!(asked.status, 202, "{}", asked.text);
    let refused = server.post(&path(&second), None, json!({})).await;
    assert_eq!(refused.status, 429, "{}", refused.text);
    assert_eq!(refused.body["error"]["code"], "rate_limited");
    Contract::of(&server)
        .await
        .check(Method::POST, DOCUMENTED, &refused);
    assert_eq!(
        server.get(&path(&second), None).await.status,
        404,
        "nothing was stored"
    );
    // Asking again for the one queued joins it.
    let joined = server.post(&path(&first), None, json!({})).await;
    assert_eq!(joined.status, 202, "{}", joined.text);
    assert_eq!(joined.body["state"], "queued");
}

/// The server takes no analyses; `gmo work`'s loop on the same database does.
pub(crate) async fn a_process_that_only_takes_jobs_analyses(server: Server) {
    let id = finished_game(&server).await;
    let asked = server.post(&path(&id), None, json!({})).await;
    assert_eq!(asked.status, 202, "{}", asked.text);
    tokio::time::sleep(Duration::from_millis(600)).await;
    let waiting = server.get(&path(&id), None).await;
    assert_eq!(waiting.body["state"], "queued", "the server runs none");
    let settings = gmo_play::Settings {
        database_url: server.url.clone(),
        sweep_interval: Duration::from_millis(100),
        analysis_nodes: 2_000,
        ..Default::default()
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let worker = tokio::spawn(async move {
        gmo_play::worker::work_until(&settings, async {
            let _ = stopped.await;
        })
        .await
    });
    let seen = until_done(&server, &id).await;
    assert_whole(seen.last().expect("read"));
    stop.send(()).expect("the worker listens");
    worker
        .await
        .expect("the worker ends")
        .expect("the worker stops cleanly");
}

pub(crate) async fn the_queue_is_bounded_in_all(server: Server) {
    let first = finished_game(&server).await;
    let second = finished_game(&server).await;
    assert_eq!(
        server.post(&path(&first), None, json!({})).await.status,
        202
    );
    let refused = server.post(&path(&second), None, json!({})).await;
    assert_eq!(refused.status, 503, "{}", refused.text);
    assert_eq!(refused.body["error"]["code"], "unavailable");
    Contract::of(&server)
        .await
        .check(Method::POST, DOCUMENTED, &refused);
}

pub(crate) async fn a_job_whose_holder_died_is_taken_over_after_its_lease(server: Server) {
    // Another "process": the same database through a store of its own.
    let other = gmo_store::Store::connect(&server.url)
        .await
        .expect("a second store");
    // A game's analysis asked for through the store (no process is woken), then at once taken
    // from whoever holds it (a clock far ahead) by a worker that leases it for 2 s and dies. The
    // server's own runner looks for jobs too, and on a loaded machine may have analysed a short
    // game whole before the dead worker takes it: then another game is tried.
    let mut attempt = 0;
    let (id, taken) = loop {
        attempt += 1;
        let id = finished_game(&server).await;
        let asked = other
            .ask_job("analysis", &id, "test", Timestamp::EPOCH, bounds())
            .await
            .expect("the store answers");
        assert!(
            matches!(asked, gmo_store::JobAsked::Started(_)),
            "{asked:?}"
        );
        let now = Timestamp::from_ms(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .expect("after 1970")
                .as_millis() as i64,
        );
        let lease = now + gmo_types::Millis::from_std(Duration::from_secs(2));
        let far = now + gmo_types::Millis::from_std(Duration::from_secs(3_600));
        let taken = other
            .take_job("analysis", "dead-worker", far, lease)
            .await
            .expect("the store answers");
        match taken {
            Some(taken) => break (id, taken),
            None => assert!(
                attempt < 5,
                "the dead worker never took a job before it was done"
            ),
        }
    };
    assert_eq!(taken.subject, id);
    let held = server.get(&path(&id), None).await;
    assert_ne!(held.body["state"], "done", "{}", held.text);
    let start = Instant::now();
    let seen = until_done(&server, &id).await;
    assert!(
        start.elapsed() >= Duration::from_secs(1),
        "done only after the dead worker's lease ran out"
    );
    assert_whole(seen.last().expect("read"));
    let job = other
        .job("analysis", &id)
        .await
        .expect("the store answers")
        .expect("the job");
    assert_ne!(job.holder.as_deref(), Some("dead-worker"));
    other.close().await;
}
