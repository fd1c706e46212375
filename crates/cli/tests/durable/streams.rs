//! Finding 4 against the real binary: streams of games that do not exist leave nothing behind,
//! so the process's resident memory does not grow with them.

use crate::Api;
use crate::support::gmo_process::Gmo;

/// Requests made before measuring, so that pools and allocator arenas have reached their size.
const WARM_UP: usize = 1_000;
const MEASURED: usize = 4_000;
/// Growth allowed over the measured requests; before the fix they grew it by about 46 MiB.
const SLACK_KIB: u64 = 8 * 1024;
const CLIENTS: usize = 8;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_streams_of_unknown_games_do_not_grow_the_process() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("gmo.db").display());
    streams_of_unknown_games(url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_streams_of_unknown_games_do_not_grow_the_process() {
    gmo_store::scratch::with_scratch_database("gmo_crash_streams", streams_of_unknown_games).await;
}

async fn streams_of_unknown_games(url: String) {
    let server = Gmo::start(&url);
    unknown_streams(&server.base, WARM_UP).await;
    let before = resident_kib(server.pid());
    unknown_streams(&server.base, MEASURED).await;
    let after = resident_kib(server.pid());
    assert!(
        after <= before + SLACK_KIB,
        "{MEASURED} streams of unknown games took the resident memory from {before} KiB to \
         {after} KiB"
    );
    server.terminate();
}

/// `count` streams of random game ids, from a few clients at once; each must be 404.
async fn unknown_streams(base: &str, count: usize) {
    let mut clients = tokio::task::JoinSet::new();
    for _ in 0..CLIENTS {
        let api = Api::new(base);
        clients.spawn(async move {
            for _ in 0..count / CLIENTS {
                let path = format!("/api/games/{}/stream", gmo_store::new_id());
                let (status, body) = api.call("GET", &path, None, None).await;
                assert_eq!(status, 404, "{body}");
            }
        });
    }
    while let Some(done) = clients.join_next().await {
        done.expect("a client");
    }
}

/// The process's resident set (VmRSS), in KiB.
fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("a VmRSS line")
}
