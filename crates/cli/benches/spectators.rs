//! Spectators benchmark (issue 26): `--streams` spectators follow one live game over compact
//! lines (`?lines=compact`) while its two players move at a steady pace. Reports the time from
//! each move's answer (to the mover) to its line reaching each spectator (p50, p99, max), the
//! bytes of a move line, and the server's memory per stream (resident memory with the streams
//! open, less before, over the streams).
//!
//! `cargo bench -p gmo --bench spectators -- [--streams 10000] [--moves 20] [--pace 500]
//! [--processes 1|2]`: `gmo serve` processes of the bench profile on a fresh PostgreSQL database
//! (`DATABASE_URL`); with two, the spectators are split between them and the moves are made on
//! the first. Spectators are plain sockets reading the chunked NDJSON, so that the client costs
//! little beside the server. Raise `ulimit -n` above the stream count first.

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
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::Mutex;

/// When each spectator received each move's line (by move number), and a line's size.
#[derive(Default)]
struct Received {
    at: Vec<(u32, Instant)>,
    line_bytes: usize,
}

async fn post(client: &reqwest::Client, url: String, token: Option<&str>, body: Value) -> Value {
    let mut request = client.post(url).json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let answer = request.send().await.expect("the server answers");
    let status = answer.status();
    let body: Value = answer.json().await.unwrap_or(Value::Null);
    assert!(status.is_success(), "{status}: {body}");
    body
}

/// A game under way on `base` → (id, White's token, Black's token).
async fn game(client: &reqwest::Client, base: &str) -> (String, String, String) {
    let made = post(
        client,
        format!("{base}/api/games"),
        None,
        json!({"clock": {"initial_ms": 3_600_000}}),
    )
    .await;
    let id = made["id"].as_str().expect("an id").to_owned();
    let token = |side: &str| {
        made["seats"][side]["token"]
            .as_str()
            .expect("a token")
            .to_owned()
    };
    let (white, black) = (token("white"), token("black"));
    for (token, king) in [(&white, "d1"), (&black, "d8")] {
        let preset = client
            .put(format!("{base}/api/games/{id}/preset"))
            .bearer_auth(token)
            .json(&json!({"preset": "default"}))
            .send()
            .await
            .expect("an answer");
        assert!(preset.status().is_success());
        post(
            client,
            format!("{base}/api/games/{id}/kings/{king}"),
            Some(token),
            json!({}),
        )
        .await;
        post(
            client,
            format!("{base}/api/games/{id}/ready"),
            Some(token),
            json!({}),
        )
        .await;
    }
    (id, white, black)
}

/// One spectator: a socket reading the game's compact stream, noting when each move's line
/// (by its `moves_played`) arrives, until `moves` moves were seen.
async fn spectate(address: String, path: String, moves: u32, received: Arc<Mutex<Received>>) {
    let mut socket = TcpStream::connect(&address).await.expect("a connection");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    socket
        .write_all(request.as_bytes())
        .await
        .expect("the request is sent");
    let mut buffer: Vec<u8> = Vec::with_capacity(8_192);
    let mut chunk = [0_u8; 8_192];
    let mut seen = 0;
    let mut mine = Received::default();
    while seen < moves {
        let read = socket.read(&mut chunk).await.expect("the stream goes on");
        if read == 0 {
            break;
        }
        let now = Instant::now();
        buffer.extend_from_slice(&chunk[..read]);
        while let Some(end) = buffer.iter().position(|&byte| byte == b'\n') {
            let line: Vec<u8> = buffer.drain(..=end).collect();
            let Some(start) = line.iter().position(|&byte| byte == b'{') else {
                continue;
            };
            let text = &line[start..];
            if !text.starts_with(br#"{"type":"move""#) {
                continue;
            }
            let value: Value = serde_json::from_slice(text).expect("a JSON line");
            let played = value["moves_played"].as_u64().unwrap_or(0);
            mine.at.push((u32::try_from(played).unwrap_or(0), now));
            mine.line_bytes = mine.line_bytes.max(text.len());
            seen += 1;
        }
    }
    let mut shared = received.lock().await;
    shared.at.extend(mine.at);
    shared.line_bytes = shared.line_bytes.max(mine.line_bytes);
}

/// Resident memory of process `pid`, in kB.
fn rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn at(sorted: &[Duration], fraction: f64) -> Duration {
    let last = sorted.len().saturating_sub(1);
    let index = (last as f64 * fraction).round() as usize;
    sorted.get(index).copied().unwrap_or_default()
}

/// White and Black shuffle a knight out and back, `moves` moves in all (plies 1..=moves).
const SHUFFLE: [(&str, &str); 4] = [("b1", "c3"), ("b8", "c6"), ("c3", "b1"), ("c6", "b8")];

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let streams = usize::try_from(option("--streams", 10_000)).unwrap_or(10_000);
    let moves = u32::try_from(option("--moves", 20)).unwrap_or(20);
    let pace = Duration::from_millis(option("--pace", 500));
    let processes = option("--processes", 1).clamp(1, 2);
    let database = ScratchDatabase::create("gmo_spectators_bench").await;
    let connections = (streams + 256).to_string();
    let flags = [
        "--rate-limit",
        "0",
        "--max-connections",
        connections.as_str(),
    ];
    let env = [("RUST_LOG", "warn")];
    let servers: Vec<Gmo> = (0..processes)
        .map(|_| Gmo::start_with_env(database.url(), &flags, &env))
        .collect();
    let client = reqwest::Client::new();
    let base = servers[0].base.clone();
    let (id, white, black) = game(&client, &base).await;
    let before: u64 = servers.iter().map(|server| rss_kb(server.pid())).sum();
    let received = Arc::new(Mutex::new(Received::default()));
    let mut spectators = tokio::task::JoinSet::new();
    for n in 0..streams {
        let server = &servers[n % servers.len()];
        let address = server.base.trim_start_matches("http://").to_owned();
        let path = format!("/api/games/{id}/stream?lines=compact");
        spectators.spawn(spectate(address, path, moves, received.clone()));
        if n % 500 == 499 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    // Every spectator has its first line (or soon will): let them settle before measuring.
    tokio::time::sleep(Duration::from_secs(
        2 + u64::try_from(streams / 2_000).unwrap_or(0),
    ))
    .await;
    let open: u64 = servers.iter().map(|server| rss_kb(server.pid())).sum();
    let mut answered = Vec::new();
    for ply in 0..moves {
        let (from, to) = SHUFFLE[usize::try_from(ply).unwrap_or(0) % SHUFFLE.len()];
        let token = if ply % 2 == 0 { &white } else { &black };
        let started = Instant::now();
        post(
            &client,
            format!("{base}/api/games/{id}/moves"),
            Some(token),
            json!({"from": from, "to": to}),
        )
        .await;
        answered.push(Instant::now());
        tokio::time::sleep(pace.saturating_sub(started.elapsed())).await;
    }
    let waited = tokio::time::timeout(Duration::from_secs(60), async {
        while spectators.join_next().await.is_some() {}
    })
    .await;
    let received = received.lock().await;
    let mut took: Vec<Duration> = received
        .at
        .iter()
        .filter_map(|(played, when)| {
            let answer = answered.get(usize::try_from(*played).ok()?.checked_sub(1)?)?;
            Some(when.saturating_duration_since(*answer))
        })
        .collect();
    took.sort_unstable();
    let expected = streams * usize::try_from(moves).unwrap_or(0);
    let per_stream = (open.saturating_sub(before)) as f64 / streams as f64;
    println!(
        "{streams} spectators of one game over {processes} process(es), {moves} moves every {} ms, \
         {} cores",
        pace.as_millis(),
        std::thread::available_parallelism().map_or(0, usize::from)
    );
    println!(
        "move answer → spectator's line: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms \
         ({} of {expected} lines seen{})",
        at(&took, 0.5).as_secs_f64() * 1e3,
        at(&took, 0.99).as_secs_f64() * 1e3,
        at(&took, 1.0).as_secs_f64() * 1e3,
        took.len(),
        if waited.is_err() {
            "; some spectators still waiting after 60 s"
        } else {
            ""
        },
    );
    println!(
        "a move line: {} bytes; server memory {before} kB before, {open} kB with the streams \
         open: {per_stream:.1} kB a stream",
        received.line_bytes
    );
    drop(received);
    for server in servers {
        server.terminate();
    }
    database.drop_database().await;
}
