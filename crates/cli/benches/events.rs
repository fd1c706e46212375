//! Events benchmark (issue 24): two `gmo serve` processes (the bench profile's binary) on one
//! fresh PostgreSQL database. Reports
//! - results across processes: for `--games` events of two teams one after the other, the event's
//!   stream is open on process two; the losing team resigns on process one. Measured from the
//!   resignation's request to the `standings` line on process two's stream (p50, p99, max);
//! - pairing: a Swiss event of `--teams` teams (64) whose rounds 1 to 4 are played out (each
//!   game resigned by Black), then the organiser's `POST /api/events/{id}/rounds` for round 5,
//!   timed `--pairings` times over as many such events (the request pairs the teams and stores
//!   the round's games in one transaction).
//!
//! `cargo bench -p gmo --bench events -- [--games 100] [--teams 64] [--pairings 5]`
//! Needs `DATABASE_URL` to reach PostgreSQL. Measure on a quiet machine only.

#[allow(dead_code)]
#[path = "../tests/support/args.rs"]
mod args;
#[allow(dead_code)]
#[path = "../tests/support/gmo_process.rs"]
mod gmo_process;

use args::option;
use gmo_process::Gmo;
use gmo_store::scratch::ScratchDatabase;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// Sign-ups are not what is measured: hashing may take the whole core; no rate limit.
const FLAGS: [&str; 4] = ["--password-hash-share", "100", "--rate-limit", "0"];
const ENV: [(&str, &str); 1] = [("RUST_LOG", "warn")];

/// A client of one server, signed in as the organiser (cookie) where asked.
struct Api {
    client: reqwest::Client,
    cookie: String,
}

impl Api {
    async fn sign_up(base: &str, name: &str) -> Api {
        let client = reqwest::Client::new();
        let answer = client
            .post(format!("{base}/api/account"))
            .json(&json!({"username": name, "password": "correct horse battery"}))
            .send()
            .await
            .expect("the server answers");
        assert_eq!(answer.status().as_u16(), 201, "signed up");
        let cookie = answer.headers()["set-cookie"]
            .to_str()
            .expect("ascii")
            .split(';')
            .next()
            .expect("a cookie")
            .to_owned();
        Api { client, cookie }
    }

    /// `method path` with `body`, as the organiser or (`token`) a team → (status, JSON).
    async fn call(
        &self,
        method: reqwest::Method,
        url: String,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        let mut request = self.client.request(method, url);
        request = match token {
            Some(token) => request.bearer_auth(token),
            None => request.header("cookie", &self.cookie),
        };
        if let Some(body) = body {
            request = request.json(&body);
        }
        let answer = request.send().await.expect("the server answers");
        let status = answer.status().as_u16();
        (status, answer.json().await.unwrap_or(Value::Null))
    }

    async fn post(&self, url: String, token: Option<&str>, body: Value) -> Value {
        let (status, answer) = self
            .call(reqwest::Method::POST, url, token, Some(body))
            .await;
        assert!((200..300).contains(&status), "{status}: {answer}");
        answer
    }

    async fn get(&self, url: String, token: &str) -> Value {
        let (status, answer) = self
            .call(reqwest::Method::GET, url, Some(token), None)
            .await;
        assert_eq!(status, 200, "{answer}");
        answer
    }
}

/// An event with `teams` teams, created on `base` → (id, each team's token).
async fn event(api: &Api, base: &str, format: Value, teams: usize) -> (String, Vec<String>) {
    let mut body = json!({"name": "bench", "clock": {"initial_ms": 600_000}});
    body.as_object_mut()
        .expect("an object")
        .extend(format.as_object().expect("an object").clone());
    let made = api.post(format!("{base}/api/events"), None, body).await;
    let id = made["id"].as_str().expect("an id").to_owned();
    let mut tokens = Vec::new();
    for n in 0..teams {
        let team = api
            .post(
                format!("{base}/api/events/{id}/teams"),
                None,
                json!({"name": format!("team {n}")}),
            )
            .await;
        let joined = api
            .post(
                format!("{base}/api/events/{id}/join"),
                None,
                json!({"code": team["code"]}),
            )
            .await;
        tokens.push(joined["token"].as_str().expect("a token").to_owned());
    }
    (id, tokens)
}

/// Every game of the current round readied by both teams and resigned by Black.
async fn play_round(api: &Api, base: &str, id: &str, tokens: &[String]) {
    let mut black = Vec::new();
    for token in tokens {
        let (status, game) = api
            .call(
                reqwest::Method::GET,
                format!("{base}/api/events/{id}/game"),
                Some(token),
                None,
            )
            .await;
        if status == 404 {
            continue; // a bye
        }
        let game_id = game["game"].as_str().expect("a game").to_owned();
        api.post(
            format!("{base}/api/games/{game_id}/ready"),
            Some(token),
            json!({}),
        )
        .await;
        if game["seat"] == "black" {
            black.push((game_id, token.clone()));
        }
    }
    for (game, token) in black {
        api.post(
            format!("{base}/api/games/{game}/resign"),
            Some(&token),
            json!({}),
        )
        .await;
    }
}

/// An event's stream: its lines' types.
struct Lines {
    response: reqwest::Response,
    buffer: Vec<u8>,
}

impl Lines {
    async fn next(&mut self) -> String {
        loop {
            if let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                let value: Value = serde_json::from_slice(&line).expect("a JSON line");
                return value["type"].as_str().unwrap_or_default().to_owned();
            }
            let chunk = self.response.chunk().await.expect("bytes");
            self.buffer
                .extend_from_slice(&chunk.expect("the stream goes on"));
        }
    }

    async fn until(&mut self, kind: &str) {
        while self.next().await != kind {}
    }
}

async fn results_across(api: &Api, one: &str, two: &str, games: u64) -> Vec<Duration> {
    let mut took = Vec::new();
    for _ in 0..games {
        let (id, tokens) = event(api, one, json!({"format": "round_robin"}), 2).await;
        let response = api
            .client
            .get(format!("{two}/api/events/{id}/stream"))
            .send()
            .await
            .expect("the stream opens");
        let mut lines = Lines {
            response,
            buffer: Vec::new(),
        };
        lines.until("event").await;
        api.post(format!("{one}/api/events/{id}/start"), None, json!({}))
            .await;
        lines.until("round").await;
        let mut loser = None;
        for token in &tokens {
            let game = api.get(format!("{one}/api/events/{id}/game"), token).await;
            let game_id = game["game"].as_str().expect("a game").to_owned();
            api.post(
                format!("{one}/api/games/{game_id}/ready"),
                Some(token),
                json!({}),
            )
            .await;
            if game["seat"] == "black" {
                loser = Some((game_id, token.clone()));
            }
        }
        let (game, token) = loser.expect("a Black team");
        let started = Instant::now();
        api.post(
            format!("{one}/api/games/{game}/resign"),
            Some(&token),
            json!({}),
        )
        .await;
        lines.until("standings").await;
        took.push(started.elapsed());
    }
    took.sort_unstable();
    took
}

async fn pairing(api: &Api, base: &str, teams: usize, times: u64) -> Vec<Duration> {
    let mut took = Vec::new();
    for _ in 0..times {
        let format = json!({"format": "swiss", "rounds": 5});
        let (id, tokens) = event(api, base, format, teams).await;
        api.post(format!("{base}/api/events/{id}/start"), None, json!({}))
            .await;
        for _ in 1..4 {
            play_round(api, base, &id, &tokens).await;
            api.post(format!("{base}/api/events/{id}/rounds"), None, json!({}))
                .await;
        }
        play_round(api, base, &id, &tokens).await;
        let started = Instant::now();
        let paired = api
            .post(format!("{base}/api/events/{id}/rounds"), None, json!({}))
            .await;
        took.push(started.elapsed());
        assert_eq!(paired["rounds"].as_array().map(Vec::len), Some(5));
        play_round(api, base, &id, &tokens).await;
    }
    took.sort_unstable();
    took
}

fn at(sorted: &[Duration], fraction: f64) -> Duration {
    let last = sorted.len().saturating_sub(1);
    let index = (last as f64 * fraction).round() as usize;
    sorted.get(index).copied().unwrap_or_default()
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let games = option("--games", 100);
    let teams = usize::try_from(option("--teams", 64)).unwrap_or(64);
    let pairings = option("--pairings", 5);
    let database = ScratchDatabase::create("gmo_events_bench").await;
    let one = Gmo::start_with_env(database.url(), &FLAGS, &ENV);
    let two = Gmo::start_with_env(database.url(), &FLAGS, &ENV);
    println!(
        "events on postgres, two processes, {} cores",
        std::thread::available_parallelism().map_or(0, usize::from)
    );
    let api = Api::sign_up(&one.base, "organiser").await;
    let took = results_across(&api, &one.base, &two.base, games).await;
    println!(
        "a game's end on process one to the standings on process two's event stream \
         ({games} games): p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        ms(at(&took, 0.5)),
        ms(at(&took, 0.99)),
        ms(at(&took, 1.0)),
    );
    let took = pairing(&api, &one.base, teams, pairings).await;
    println!(
        "POST /rounds pairing Swiss round 5 of {teams} teams ({pairings} events): \
         min {:.1} ms, median {:.1} ms, max {:.1} ms",
        ms(at(&took, 0.0)),
        ms(at(&took, 0.5)),
        ms(at(&took, 1.0)),
    );
    one.terminate();
    two.terminate();
    database.drop_database().await;
}
