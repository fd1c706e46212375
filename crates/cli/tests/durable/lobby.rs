//! Issue 13 against two `gmo serve` processes sharing one PostgreSQL: 200 seekers spread over
//! both pair into exactly 100 games; a withdrawn (or quiet) seek is never paired; accepting a
//! listed seek races correctly against automatic pairing.

use crate::Api;
use crate::support::gmo_process::Gmo;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

const SEEKERS: usize = 200;
const RACES: usize = 20;
/// Every seeker comes from 127.0.0.1: lift the per-client bound of open seeks and the rate limit.
const FLAGS: [&str; 4] = ["--max-seeks-per-client", "100000", "--rate-limit", "0"];

fn two(url: &str) -> (Gmo, Gmo) {
    (Gmo::start_with(url, &FLAGS), Gmo::start_with(url, &FLAGS))
}

/// A seek's stream, line by line.
struct SeekStream {
    response: reqwest::Response,
    buffer: Vec<u8>,
}

impl SeekStream {
    async fn open(base: &str, id: &str, token: &str) -> SeekStream {
        let response = reqwest::Client::new()
            .get(format!("{base}/api/seeks/{id}/stream"))
            .bearer_auth(token)
            .send()
            .await
            .expect("the stream opens");
        assert_eq!(response.status().as_u16(), 200, "the seek's stream opens");
        SeekStream {
            response,
            buffer: Vec::new(),
        }
    }

    /// The next line; `None` when the stream ended. Panics after 20 s without one.
    async fn line(&mut self) -> Option<Value> {
        tokio::time::timeout(Duration::from_secs(20), self.read())
            .await
            .expect("a seek line in time")
    }

    async fn read(&mut self) -> Option<Value> {
        loop {
            if let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                return Some(serde_json::from_slice(&line).expect("a JSON line"));
            }
            let chunk = self.response.chunk().await.expect("stream bytes")?;
            self.buffer.extend_from_slice(&chunk);
        }
    }

    /// The first line that is not `waiting`; the stream must end after it.
    async fn outcome(&mut self) -> Value {
        loop {
            let line = self.line().await.expect("an outcome before the end");
            if line["type"] != "waiting" {
                assert!(
                    self.line().await.is_none(),
                    "the stream closes after {line}"
                );
                return line;
            }
        }
    }
}

/// Opens a 5+0 seek with `color` → (id, token).
async fn seek(api: &Api, color: &str) -> (String, String) {
    let body = json!({"clock": {"initial_ms": 300_000}, "color": color});
    let (status, made) = api.call("POST", "/api/seeks", None, Some(body)).await;
    assert_eq!(status, 201, "{made}");
    let text = |key: &str| made[key].as_str().expect("a string").to_owned();
    (text("id"), text("token"))
}

/// The seat `token` holds in `game`, as the server says.
async fn seat_in(api: &Api, game: &str, token: &str) -> String {
    let (status, view) = api
        .call("GET", &format!("/api/games/{game}"), Some(token), None)
        .await;
    assert_eq!(status, 200, "{view}");
    view["you"].as_str().expect("a seat").to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_200_seekers_on_two_processes_pair_into_100_games() {
    gmo_store::scratch::with_scratch_database("gmo_lobby_pairs", |url| async move {
        let (one, two) = two(&url);
        let bases = [one.base.clone(), two.base.clone()];
        let mut seekers = tokio::task::JoinSet::new();
        for n in 0..SEEKERS {
            // Each seeker opens its seek on one process and follows it on the other half the
            // time, so that the pairing and the stream are often in different processes.
            let (opens, follows) = (bases[n % 2].clone(), bases[(n / 2) % 2].clone());
            seekers.spawn(async move {
                let (id, token) = seek(&Api::new(&opens), "random").await;
                let line = SeekStream::open(&follows, &id, &token)
                    .await
                    .outcome()
                    .await;
                assert_eq!(line["type"], "paired", "{line}");
                (id, line)
            });
        }
        let mut games: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
        let mut seeks = BTreeSet::new();
        while let Some(joined) = seekers.join_next().await {
            let (id, line) = joined.expect("a seeker");
            assert!(seeks.insert(id), "every seek pairs once");
            let text = |key: &str| line[key].as_str().expect("a string").to_owned();
            games
                .entry(text("game"))
                .or_default()
                .push((text("seat"), text("token")));
        }
        assert_eq!(seeks.len(), SEEKERS);
        assert_eq!(games.len(), SEEKERS / 2, "exactly {} games", SEEKERS / 2);
        for (n, (game, seats)) in games.iter().enumerate() {
            let mut colours: Vec<&str> = seats.iter().map(|(seat, _)| seat.as_str()).collect();
            colours.sort_unstable();
            assert_eq!(colours, ["black", "white"], "game {game}: {seats:?}");
            let api = Api::new(&bases[n % 2]);
            for (seat, token) in seats {
                assert_eq!(&seat_in(&api, game, token).await, seat, "game {game}");
            }
        }
        let (status, open) = Api::new(&bases[0])
            .call("GET", "/api/seeks", None, None)
            .await;
        assert_eq!((status, open), (200, json!([])), "no seek is left open");
        one.terminate();
        two.terminate();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_withdrawn_or_quiet_seek_is_never_paired_across_processes() {
    gmo_store::scratch::with_scratch_database("gmo_lobby_withdrawn", |url| async move {
        let (one, two) = two(&url);
        let (api_one, api_two) = (Api::new(&one.base), Api::new(&two.base));
        // Withdrawn by its owner through the other process, while its stream waits on this one.
        let (withdrawn, token) = seek(&api_one, "random").await;
        let mut stream = SeekStream::open(&one.base, &withdrawn, &token).await;
        assert_eq!(stream.line().await.expect("a line")["type"], "waiting");
        let path = format!("/api/seeks/{withdrawn}");
        let (status, body) = api_two.call("DELETE", &path, Some(&token), None).await;
        assert_eq!(status, 204, "{body}");
        assert_eq!(stream.outcome().await["type"], "withdrawn");
        // Opened and never followed: withdrawn once 10 s have passed.
        let (quiet, _) = seek(&api_two, "random").await;
        tokio::time::sleep(Duration::from_secs(12)).await;
        let (late, late_token) = seek(&api_two, "random").await;
        let mut late_stream = SeekStream::open(&one.base, &late, &late_token).await;
        for _ in 0..3 {
            let line = late_stream.line().await.expect("a line");
            assert_eq!(line["type"], "waiting", "{line}");
        }
        for gone in [&withdrawn, &quiet] {
            let accept = format!("/api/seeks/{gone}/accept");
            let (status, body) = api_one.call("POST", &accept, None, None).await;
            assert_eq!(status, 404, "{body}");
        }
        let (_, open) = api_one.call("GET", "/api/seeks", None, None).await;
        let ids: Vec<&str> = open
            .as_array()
            .expect("a list")
            .iter()
            .filter_map(|s| s["id"].as_str())
            .collect();
        assert_eq!(ids, [late.as_str()], "only the late seek is open");
        one.terminate();
        two.terminate();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_accepting_a_listed_seek_races_automatic_pairing() {
    gmo_store::scratch::with_scratch_database("gmo_lobby_race", |url| async move {
        let (one, two) = two(&url);
        let (mut accepted, mut automatic) = (0, 0);
        for round in 0..RACES {
            let (api_one, api_two) = (Api::new(&one.base), Api::new(&two.base));
            let (listed, token) = seek(&api_one, "random").await;
            let mut stream = SeekStream::open(&one.base, &listed, &token).await;
            assert_eq!(stream.line().await.expect("a line")["type"], "waiting");
            // A head start of 50 ms for the accept, then for the rival seek, then none: each
            // outcome happens, and the last third is a true race.
            let (accept_wait, rival_wait) = match round % 3 {
                0 => (0, 50),
                1 => (50, 0),
                _ => (0, 0),
            };
            let accept = format!("/api/seeks/{listed}/accept");
            let taking = async {
                tokio::time::sleep(Duration::from_millis(accept_wait)).await;
                api_two.call("POST", &accept, None, None).await
            };
            let rivalling = async {
                tokio::time::sleep(Duration::from_millis(rival_wait)).await;
                seek(&api_one, "random").await
            };
            let ((status, taken), rival) = tokio::join!(taking, rivalling);
            let mut rival_stream = SeekStream::open(&two.base, &rival.0, &rival.1).await;
            let seeker = stream.outcome().await;
            assert_eq!(seeker["type"], "paired", "{seeker}");
            let game = seeker["game"].as_str().expect("a game");
            let api = Api::new(&two.base);
            if status == 200 {
                accepted += 1;
                assert_eq!(taken["game"], game, "the seeker is in the taker's game");
                let taker_token = taken["token"].as_str().expect("a token");
                assert_eq!(
                    seat_in(&api, game, taker_token).await,
                    taken["seat"].as_str().expect("a seat")
                );
                // The rival found nothing to pair with: it waits; withdraw it.
                let line = rival_stream.line().await.expect("a line");
                assert_eq!(line["type"], "waiting", "{line}");
                let path = format!("/api/seeks/{}", rival.0);
                assert_eq!(api.call("DELETE", &path, Some(&rival.1), None).await.0, 204);
            } else {
                automatic += 1;
                assert_eq!(status, 409, "{taken}");
                assert_eq!(taken["error"]["code"], "seek_paired");
                let line = rival_stream.outcome().await;
                assert_eq!(line["game"], game, "the rival took the listed seek");
                assert_ne!(line["seat"], seeker["seat"]);
                assert_eq!(
                    seat_in(&api, game, line["token"].as_str().expect("a token")).await,
                    line["seat"].as_str().expect("a seat")
                );
            }
            let seeker_token = seeker["token"].as_str().expect("a token");
            assert_eq!(
                seat_in(&api, game, seeker_token).await,
                seeker["seat"].as_str().expect("a seat")
            );
        }
        assert_eq!(accepted + automatic, RACES);
        assert!(accepted > 0 && automatic > 0, "both outcomes happened");
        eprintln!("{RACES} races: {accepted} won by the accept, {automatic} by automatic pairing");
        one.terminate();
        two.terminate();
    })
    .await;
}
