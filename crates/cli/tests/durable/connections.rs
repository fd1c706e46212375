//! Finding 3 against the real binary: connections that never finish their headers, or idle
//! after a request, are closed after the header timeout; no more than `--max-connections` are
//! open at once, so the process's descriptors come back down; streams outlive the timeout.

use crate::Api;
use crate::support::gmo_process::Gmo;
use serde_json::json;
use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

const SLOW_CLIENTS: usize = 200;
const MAX_CONNECTIONS: usize = 64;
/// The flags under test: a one-second header timeout, 64 connections at most.
const FLAGS: &[&str] = &["--header-timeout", "1", "--max-connections", "64"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_slow_clients_are_cut_off_and_descriptors_come_back() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("gmo.db").display());
    slow_clients(url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_slow_clients_are_cut_off_and_descriptors_come_back() {
    gmo_store::scratch::with_scratch_database("gmo_crash_slow", slow_clients).await;
}

async fn slow_clients(url: String) {
    let server = Gmo::start_with(&url, FLAGS);
    let api = Api::new(&server.base);
    let address = server.base.trim_start_matches("http://").to_owned();
    assert_eq!(api.call("GET", "/healthz", None, None).await.0, 200);
    let before = descriptors(server.pid());

    // 200 connections that send `G` and nothing more.
    let mut slow: Vec<TcpStream> = (0..SLOW_CLIENTS)
        .map(|_| {
            let mut stream = TcpStream::connect(&address).expect("a connection");
            stream.write_all(b"G").expect("a byte");
            stream
                .set_read_timeout(Some(Duration::from_millis(50)))
                .expect("a timeout");
            stream
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let during = descriptors(server.pid());
    assert!(
        during <= before + MAX_CONNECTIONS + 4,
        "{during} descriptors with {SLOW_CLIENTS} slow clients (before: {before}, cap \
         {MAX_CONNECTIONS})"
    );

    // Every one is closed by the server: 200 / 64 waves of one second each, and some slack.
    let started = Instant::now();
    let deadline = started + Duration::from_secs(15);
    while !slow.is_empty() && Instant::now() < deadline {
        slow.retain_mut(|stream| !closed_by_peer(stream));
    }
    assert!(
        slow.is_empty(),
        "{} slow connections still open after 15 s",
        slow.len()
    );
    let after = wait_for_descriptors(server.pid(), before + 2);
    assert!(
        after <= before + 2,
        "{after} descriptors after (before: {before})"
    );
    println!(
        "descriptors: {before} before, {during} with {SLOW_CLIENTS} slow clients, {after} after; \
         all closed {:?} after the last was opened",
        started.elapsed()
    );

    // A good request is served at once again.
    assert_eq!(api.call("GET", "/healthz", None, None).await.0, 200);
    idle_keep_alive_is_closed(&address);
    // A client that keeps no idle connection: with a one-second timeout, a pooled one may be
    // closed by the server just as the client reuses it (as with any keep-alive timeout).
    let unpooled = Api {
        base: server.base.clone(),
        client: reqwest::Client::builder()
            .pool_max_idle_per_host(0)
            .timeout(Duration::from_secs(10))
            .build()
            .expect("a client"),
    };
    a_stream_outlives_the_timeout(&unpooled, &address).await;
    server.terminate();
}

/// Whether the server closed `stream` (EOF or a reset); `false` while it is still open.
fn closed_by_peer(stream: &mut TcpStream) -> bool {
    let mut buffer = [0u8; 512];
    match stream.read(&mut buffer) {
        Ok(0) => true,
        // hyper may answer something (a 408) before closing: read on.
        Ok(_) => false,
        Err(error) if matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => false,
        Err(_) => true,
    }
}

/// A connection that made one request and then sends nothing is closed after the timeout.
fn idle_keep_alive_is_closed(address: &str) {
    let mut stream = TcpStream::connect(address).expect("a connection");
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: gmo\r\n\r\n")
        .expect("a request");
    stream
        .set_read_timeout(Some(Duration::from_millis(100)))
        .expect("a timeout");
    let started = Instant::now();
    let mut answered = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => answered.extend_from_slice(&buffer[..n]),
            Err(error) if matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => break,
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "an idle keep-alive connection is still open after 5 s"
        );
    }
    let text = String::from_utf8_lossy(&answered);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "closed after {:?}, before the timeout",
        started.elapsed()
    );
}

/// A game's stream stays open past the header timeout and still carries changes.
async fn a_stream_outlives_the_timeout(api: &Api, address: &str) {
    let (status, created) = api.call("POST", "/api/games", None, Some(json!({}))).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("an id");
    let white = created["seats"]["white"]["token"]
        .as_str()
        .expect("a token");
    let mut stream = TcpStream::connect(address).expect("a connection");
    let request = format!("GET /api/games/{id}/stream HTTP/1.1\r\nHost: gmo\r\n\r\n");
    stream.write_all(request.as_bytes()).expect("a request");
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .expect("a timeout");
    let mut seen = String::new();
    read_until(&mut stream, &mut seen, "\"moves_played\"");
    assert!(seen.starts_with("HTTP/1.1 200"), "{seen}");
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    let path = format!("/api/games/{id}/preset");
    let (status, body) = api
        .call(
            "PUT",
            &path,
            Some(white),
            Some(json!({"preset": "default"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    read_until(&mut stream, &mut seen, "\"type\":\"setup\"");
}

fn read_until(stream: &mut TcpStream, seen: &mut String, wanted: &str) {
    let mut buffer = [0u8; 8192];
    while !seen.contains(wanted) {
        match stream.read(&mut buffer) {
            Ok(0) => panic!("the stream closed before {wanted}: {seen}"),
            Ok(n) => seen.push_str(&String::from_utf8_lossy(&buffer[..n])),
            Err(error) => panic!("no {wanted} on the stream ({error}): {seen}"),
        }
    }
}

/// Open descriptors of the process.
fn descriptors(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .expect("/proc fd")
        .count()
}

/// The descriptor count once it is at most `target`, or the last one seen after 5 s.
fn wait_for_descriptors(pid: u32, target: usize) -> usize {
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        let count = descriptors(pid);
        if count <= target || Instant::now() >= until {
            return count;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
