//! Issue 36: the database going away under load is `503 unavailable` with `Retry-After`, never
//! `500`. `gmo serve` on a scratch PostgreSQL database of its own plays games while every one of
//! its connections is terminated (`pg_terminate_backend`, as a restart or a failover does to
//! them) five times, half a second apart; no answer may be a 500, every acknowledged move must
//! be in the records in order, and the server must serve again within seconds. The shared
//! cluster is never restarted from a test: only this database's connections are cut.

use crate::{Api, Seats};
use gmo_store::scratch::{drop_connections, with_scratch_database};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use support::gmo_process::Gmo;

use crate::support;

const GAMES: usize = 4;
const CUTS: usize = 5;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_connections_terminated_under_load_are_503_never_500() {
    with_scratch_database("gmo_terminate_test", |url| async move {
        let server = Gmo::start(&url);
        let api = Api::new(&server.base);
        let mut games = Vec::new();
        for _ in 0..GAMES {
            games.push(Seats::create(&api).await);
        }
        let stop = Instant::now() + Duration::from_millis(500 * CUTS as u64 + 1_500);
        let players: Vec<_> = games
            .iter()
            .cloned()
            .map(|game| tokio::spawn(play_until(game, Api::new(&server.base), stop)))
            .collect();
        tokio::time::sleep(Duration::from_millis(500)).await;
        let mut cut = 0;
        for _ in 0..CUTS {
            cut += drop_connections(&url).await;
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        let last_cut = Instant::now();
        let mut statuses = BTreeMap::<u16, u64>::new();
        let mut played = Vec::new();
        for player in players {
            let (seen, acknowledged) = player.await.expect("a player");
            for (status, count) in seen {
                *statuses.entry(status).or_default() += count;
            }
            played.push(acknowledged);
        }
        println!("{cut} connections terminated; answers by status: {statuses:?}");
        assert!(cut >= CUTS as u64, "connections were terminated: {cut}");
        assert_eq!(statuses.get(&500), None, "no 500: {statuses:?}");
        let bad: Vec<_> = statuses
            .keys()
            .filter(|status| ![200, 409, 503].contains(*status))
            .collect();
        assert!(bad.is_empty(), "only 200, 409 and 503: {statuses:?}");
        // Serving again within seconds of the last cut.
        let serving = loop {
            let (status, _) = api
                .try_call("GET", &games[0].path(""), None, None)
                .await
                .expect("the server answers");
            if status == 200 {
                break last_cut.elapsed();
            }
            assert!(
                last_cut.elapsed() < Duration::from_secs(5),
                "still {status} 5 s after the last cut"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        println!("serving again {serving:?} after the last cut");
        // Every acknowledged move is in its game's record, in order.
        for (game, acknowledged) in games.iter().zip(&played) {
            assert!(!acknowledged.is_empty(), "moves were acknowledged");
            let (status, _) = api
                .call("POST", &game.path("/resign"), Some(&game.white), None)
                .await;
            assert_eq!(status, 200);
            let (status, record) = api.call("GET", &game.path("/record"), None, None).await;
            assert_eq!(status, 200, "{record}");
            let plies: Vec<Value> = record["plies"]
                .as_array()
                .expect("plies")
                .iter()
                .map(|ply| json!([ply["from"], ply["to"], ply["landed"]]))
                .collect();
            // A move answered 503 may yet have committed (the connection cut after the commit):
            // the acknowledged ones are the record's in order, with at most such others between.
            let mut rest = plies.iter();
            for ply in acknowledged {
                assert!(
                    rest.any(|stored| stored == ply),
                    "{ply} acknowledged, in order, among {plies:?}"
                );
            }
        }
        server.terminate();
    })
    .await;
}

/// Plays `game` until `stop`, reading and moving whatever the answers → how many answers of
/// each status, and the moves acknowledged (`[from, to, landed]`).
async fn play_until(game: Seats, api: Api, stop: Instant) -> (BTreeMap<u16, u64>, Vec<Value>) {
    let mut statuses = BTreeMap::<u16, u64>::new();
    let mut acknowledged = Vec::new();
    while Instant::now() < stop {
        let mut seen = |status: u16| *statuses.entry(status).or_default() += 1;
        let (status, view) = api
            .try_call("GET", &game.path(""), Some(&game.white), None)
            .await
            .expect("the server answers");
        seen(status);
        if status != 200 {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        }
        let token = match view["to_move"].as_str() {
            Some("white") => &game.white,
            _ => &game.black,
        };
        let (status, own) = api
            .try_call("GET", &game.path(""), Some(token), None)
            .await
            .expect("the server answers");
        seen(status);
        if status != 200 {
            continue;
        }
        let Some((mv, statuses_of_moves)) = quiet_move(&api, &game, &own).await else {
            continue;
        };
        for status in statuses_of_moves {
            seen(status);
        }
        let (status, answer) = api
            .try_call("POST", &game.path("/moves"), Some(token), Some(mv))
            .await
            .expect("the server answers");
        seen(status);
        if status == 200 {
            let ply = &answer["ply"];
            acknowledged.push(json!([ply["from"], ply["to"], ply["landed"]]));
        }
    }
    (statuses, acknowledged)
}

/// A quiet move of one of the caller's pieces (as `crate::quiet_move`), and the statuses of the
/// reads it took; `None` if a read was refused.
async fn quiet_move(api: &Api, game: &Seats, own: &Value) -> Option<(Value, Vec<u16>)> {
    let board = own["board"].as_array()?;
    let empty = |square: &Value| board.iter().all(|piece| piece["square"] != *square);
    let freezes = |piece: &Value| {
        let genome = gmo_genome::Genome::parse(piece["dna"].as_str().unwrap_or_default());
        genome.is_ok_and(|genome| genome.debuffs().iter().any(|d| d.codon() == "HSC"))
    };
    let mut statuses = Vec::new();
    for piece in board
        .iter()
        .filter(|p| p["color"] == own["you"] && !freezes(p))
    {
        let square = piece["square"].as_str()?;
        let (status, moves) = api
            .try_call("GET", &game.path(&format!("/moves/{square}")), None, None)
            .await
            .expect("the server answers");
        statuses.push(status);
        if status != 200 {
            return None;
        }
        let quiet = moves
            .as_array()
            .into_iter()
            .flatten()
            .find(|m| empty(&m["to"]));
        if let Some(m) = quiet {
            return Some((json!({"from": m["from"], "to": m["to"]}), statuses));
        }
    }
    None
}
