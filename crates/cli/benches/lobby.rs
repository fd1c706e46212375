//! Lobby benchmark (issue 13): two `gmo serve` processes (the bench profile's binary) on one
//! fresh database. Reports
//! - latency: for `--pairs` pairs one after the other, a seeker opens a 5+0 seek on process one
//!   and follows it there; once it says `waiting`, a second seeker opens a matching seek on
//!   process two and follows it there. Measured from the second seek's request to the moment
//!   both streams have said `paired` (p50, p99, max);
//! - throughput: `--seekers` seekers at once, spread over both processes (each opens on one and
//!   follows on the other half the time), all 5+0: seeks paired per second, from the first
//!   request to the last `paired` line.
//!
//! `cargo bench -p gmo --bench lobby -- [--pairs 200] [--seekers 400] [--backend postgres|sqlite]`
//! PostgreSQL (the default): a new database through `DATABASE_URL`. SQLite runs both processes
//! on one file. Measure on a quiet machine only.

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

/// Every seeker comes from 127.0.0.1: lift the per-client bound of open seeks and the rate limit.
const FLAGS: [&str; 4] = ["--max-seeks-per-client", "1000000", "--rate-limit", "0"];
const ENV: [(&str, &str); 1] = [("RUST_LOG", "warn")];

fn backend() -> String {
    args::text("--backend").unwrap_or_else(|| "postgres".to_owned())
}

/// Opens a 5+0 seek on `base` → (id, token).
async fn seek(client: &reqwest::Client, base: &str) -> (String, String) {
    let answer = client
        .post(format!("{base}/api/seeks"))
        .json(&json!({"clock": {"initial_ms": 300_000}}))
        .send()
        .await
        .expect("the server answers");
    assert_eq!(answer.status().as_u16(), 201, "a seek opens");
    let made: Value = answer.json().await.expect("JSON");
    let text = |key: &str| made[key].as_str().expect("a string").to_owned();
    (text("id"), text("token"))
}

/// A seek's stream on `base`.
struct Follow {
    response: reqwest::Response,
    buffer: Vec<u8>,
}

impl Follow {
    async fn open(client: &reqwest::Client, base: &str, id: &str, token: &str) -> Follow {
        let response = client
            .get(format!("{base}/api/seeks/{id}/stream"))
            .bearer_auth(token)
            .send()
            .await
            .expect("the stream opens");
        assert_eq!(response.status().as_u16(), 200);
        Follow {
            response,
            buffer: Vec::new(),
        }
    }

    /// The next line's `type`.
    async fn next(&mut self) -> String {
        loop {
            if let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                let value: Value = serde_json::from_slice(&line).expect("a JSON line");
                return value["type"].as_str().unwrap_or_default().to_owned();
            }
            let chunk = self.response.chunk().await.expect("bytes");
            self.buffer
                .extend_from_slice(&chunk.expect("the stream goes on until paired"));
        }
    }

    async fn paired(&mut self) {
        loop {
            match self.next().await.as_str() {
                "waiting" => continue,
                "paired" => return,
                other => panic!("the seek ended {other}"),
            }
        }
    }
}

async fn latency(one: &str, two: &str, pairs: u64) -> Vec<Duration> {
    let client = reqwest::Client::new();
    let mut took = Vec::new();
    for _ in 0..pairs {
        let (id, token) = seek(&client, one).await;
        let mut first = Follow::open(&client, one, &id, &token).await;
        assert_eq!(first.next().await, "waiting");
        let started = Instant::now();
        let (id, token) = seek(&client, two).await;
        let mut second = Follow::open(&client, two, &id, &token).await;
        tokio::join!(first.paired(), second.paired());
        took.push(started.elapsed());
    }
    took.sort_unstable();
    took
}

async fn throughput(bases: [String; 2], seekers: u64) -> Duration {
    let client = reqwest::Client::new();
    let started = Instant::now();
    let mut all = tokio::task::JoinSet::new();
    for n in 0..seekers {
        let n = usize::try_from(n).unwrap_or(0);
        let (opens, follows) = (bases[n % 2].clone(), bases[(n / 2) % 2].clone());
        let client = client.clone();
        all.spawn(async move {
            let (id, token) = seek(&client, &opens).await;
            Follow::open(&client, &follows, &id, &token)
                .await
                .paired()
                .await;
        });
    }
    while let Some(done) = all.join_next().await {
        done.expect("a seeker");
    }
    started.elapsed()
}

fn at(sorted: &[Duration], fraction: f64) -> Duration {
    let last = sorted.len().saturating_sub(1);
    let index = (last as f64 * fraction).round() as usize;
    sorted.get(index).copied().unwrap_or_default()
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let (pairs, seekers) = (option("--pairs", 200), option("--seekers", 400) / 2 * 2);
    let backend = backend();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let database = match backend.as_str() {
        "sqlite" => None,
        _ => Some(ScratchDatabase::create("gmo_lobby_bench").await),
    };
    let url = database.as_ref().map_or_else(
        || format!("sqlite://{}", dir.path().join("lobby.db").display()),
        |database| database.url().to_owned(),
    );
    let one = Gmo::start_with_env(&url, &FLAGS, &ENV);
    let two = Gmo::start_with_env(&url, &FLAGS, &ENV);
    println!(
        "lobby on {backend}, two processes, {} cores",
        std::thread::available_parallelism().map_or(0, usize::from)
    );
    let took = latency(&one.base, &two.base, pairs).await;
    println!(
        "latency, second seek to both `paired` ({pairs} pairs, across processes): \
         p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        at(&took, 0.5).as_secs_f64() * 1e3,
        at(&took, 0.99).as_secs_f64() * 1e3,
        at(&took, 1.0).as_secs_f64() * 1e3,
    );
    let elapsed = throughput([one.base.clone(), two.base.clone()], seekers).await;
    println!(
        "throughput: {seekers} seekers at once paired in {:.2} s: {:.0} seeks paired per second",
        elapsed.as_secs_f64(),
        seekers as f64 / elapsed.as_secs_f64()
    );
    one.terminate();
    two.terminate();
    if let Some(database) = database {
        database.drop_database().await;
    }
}
