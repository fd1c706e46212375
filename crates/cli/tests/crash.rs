//! Crash safety of the real binary (docs/service.md, Reliability): `gmo serve` on SQLite and on
//! PostgreSQL acknowledges moves and is killed with SIGKILL — once while idle, once while moves
//! are being sent — and a new process on the same database must show every acknowledged move,
//! clocks resumed from the stored state (the running side's kept running through the downtime,
//! the other's did not move), and no half-applied change. The last process is stopped with
//! SIGTERM and must exit cleanly.

use gmo_genome::Genome;
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use support::gmo_process::Gmo;
use tokio::sync::mpsc as channel;

mod support {
    // Shared with the load benchmark.
    #[allow(dead_code)]
    pub mod gmo_process;
}

// Issue 10 against the real binary: bots that outlive their process, streams that leak nothing.
#[path = "durable/bots.rs"]
mod bots;
#[path = "durable/connections.rs"]
mod connections;
#[path = "durable/streams.rs"]
mod streams;
// Issue 36: the database's connections cut under load: 503, never 500.
#[path = "durable/database.rs"]
mod database;
// Issue 13 against two real processes on one PostgreSQL: the lobby's pairing.
#[path = "durable/lobby.rs"]
mod lobby;
// Issue 33 against the real binary: agent programs in `gmo arena` (shares this binary's link).
#[path = "agents/arena.rs"]
mod agent_arena;
// Issue 33: `gmo agent play` against a real server (restarted while it plays).
#[path = "agents/bridge.rs"]
mod agent_bridge;

const CLOCK_MS: i64 = 600_000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_acknowledged_moves_survive_kill_9() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("gmo.db").display());
    crash_and_restart(url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_acknowledged_moves_survive_kill_9() {
    gmo_store::scratch::with_scratch_database("gmo_crash_test", crash_and_restart).await;
}

async fn crash_and_restart(url: String) {
    let server = Gmo::start(&url);
    let game = Seats::create(&Api::new(&server.base)).await;
    let mut acknowledged = Vec::new();
    for _ in 0..5 {
        acknowledged.push(
            game.play_one(&Api::new(&server.base))
                .await
                .expect("a move"),
        );
    }

    // 1. Killed while idle: everything as it was, except the running clock.
    let api = Api::new(&server.base);
    let asked_before = Instant::now();
    let before = game.view(&api).await;
    let seen_at = Instant::now();
    server.kill_9();
    tokio::time::sleep(Duration::from_secs(1)).await;
    let server = Gmo::start(&url);
    let asked_at = Instant::now();
    let after = game.view(&Api::new(&server.base)).await;
    let answered_at = Instant::now();
    for field in ["status", "moves_played", "to_move", "board", "seats"] {
        assert_eq!(before[field], after[field], "{field} survives the crash");
    }
    check_clocks(
        &before,
        &after,
        asked_at - seen_at,
        answered_at - asked_before,
    );
    check_consistent(&url, &after).await;

    // 2. Killed while moves are being sent: every acknowledged one is kept.
    let (acks, mut acked) = channel::unbounded_channel();
    let firing = tokio::spawn(
        game.clone()
            .play_until_refused(Api::new(&server.base), acks),
    );
    for _ in 0..3 {
        acked.recv().await.expect("three more moves acknowledged");
    }
    server.kill_9();
    acknowledged.extend(firing.await.expect("the firing task ends"));
    let server = Gmo::start(&url);
    let api = Api::new(&server.base);
    let view = game.view(&api).await;
    let played = view["moves_played"].as_u64().expect("moves played");
    assert!(
        played == acknowledged.len() as u64 || played == acknowledged.len() as u64 + 1,
        "{played} moves stored, {} acknowledged (at most one more may have committed unanswered)",
        acknowledged.len()
    );
    check_consistent(&url, &view).await;

    // The record, once over, holds the acknowledged moves in order.
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
    assert_eq!(plies[..acknowledged.len()], acknowledged[..]);
    let exported: gmo_engine::GameRecord =
        serde_json::from_value(record["replay"].clone()).expect("an engine record");
    let replayed =
        gmo_engine::replay(&exported).expect("the record, rebuilt after crashes, replays");
    let board = serde_json::to_value(
        replayed
            .view(gmo_engine::Viewer::Spectator, gmo_engine::Timestamp::EPOCH)
            .board,
    );
    assert_eq!(board.expect("a board"), record["game"]["board"]);
    server.terminate();
}

/// The running side's clock went down by the downtime (at least the time from the answer of the
/// last view before the crash to the request after it, at most from that view's request to the
/// answer after it); the other's is as it was.
fn check_clocks(before: &Value, after: &Value, at_least: Duration, at_most: Duration) {
    let clocks = (&before["clocks"], &after["clocks"]);
    let running = clocks.0["running"].as_str().expect("a clock runs");
    assert_eq!(clocks.1["running"], running, "the same clock runs");
    let waiting = if running == "white" { "black" } else { "white" };
    let ms = |clocks: &Value, side: &str| clocks[format!("{side}_ms")].as_i64().expect("ms");
    assert_eq!(
        ms(clocks.0, waiting),
        ms(clocks.1, waiting),
        "the waiting clock"
    );
    let spent = ms(clocks.0, running) - ms(clocks.1, running);
    let (low, high) = (at_least.as_millis() as i64, at_most.as_millis() as i64);
    // One millisecond either way: the server's clock reads whole milliseconds.
    assert!(
        spent + 1 >= low && spent <= high + 1,
        "the running clock spent {spent} ms over a downtime of {low}..{high} ms"
    );
    assert!(low >= 1_000, "the server was down at least a second");
}

/// Nothing half-applied: the game row's count of plies is the record's length, and the game's
/// moves (as its view shows them) are the record's moves.
async fn check_consistent(url: &str, view: &Value) {
    let id = view["id"]
        .as_str()
        .expect("an id")
        .parse()
        .expect("a game id");
    let store = gmo_store::Store::connect(url)
        .await
        .expect("the store opens");
    let game = store.load_game::<Value>(&id).await.expect("the game");
    let record: Vec<Value> = store.record(&id).await.expect("the record");
    assert_eq!(game.plies, record.len() as i64, "the row counts its plies");
    // Each seat's preset, king and ready, then one change per ply.
    assert_eq!(
        game.version,
        6 + game.plies,
        "no change without its ply, nor a ply without it"
    );
    let moves = record.iter().filter(|ply| ply["type"] == "move").count();
    assert_eq!(
        json!(moves),
        view["moves_played"],
        "the view's moves are the record's"
    );
    store.close().await;
}

/// A client for one server.
struct Api {
    base: String,
    client: reqwest::Client,
}

impl Api {
    fn new(base: &str) -> Api {
        Api {
            base: base.to_owned(),
            client: reqwest::Client::builder()
                .timeout(Duration::from_secs(10))
                .build()
                .expect("a client"),
        }
    }

    /// Status and JSON body; `Err` when the server does not answer (it was killed).
    async fn try_call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> reqwest::Result<(u16, Value)> {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("a method");
        let mut request = self.client.request(method, format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await?;
        let status = response.status().as_u16();
        let text = response.text().await?;
        Ok((status, serde_json::from_str(&text).unwrap_or(Value::Null)))
    }

    async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        self.try_call(method, path, token, body)
            .await
            .expect("the server answers")
    }
}

/// A started game on the default preset and both seats' tokens.
#[derive(Clone)]
struct Seats {
    id: String,
    white: String,
    black: String,
}

impl Seats {
    async fn create(api: &Api) -> Seats {
        let game = Seats::new_game(api, json!({"clock": {"initial_ms": CLOCK_MS}})).await;
        for (token, king) in [(&game.white, "d1"), (&game.black, "d8")] {
            game.set_up(api, token, king).await;
        }
        game
    }

    /// A new game created with `body`, not set up → its id and seat tokens (empty for a bot's).
    async fn new_game(api: &Api, body: Value) -> Seats {
        let (status, created) = api.call("POST", "/api/games", None, Some(body)).await;
        assert_eq!(status, 201, "{created}");
        let text = |at: &str| {
            let found = created.pointer(at).and_then(Value::as_str);
            found.unwrap_or_default().to_owned()
        };
        Seats {
            id: text("/id"),
            white: text("/seats/white/token"),
            black: text("/seats/black/token"),
        }
    }

    /// Sets up the seat of `token`: the default preset, its king on `king`, ready.
    async fn set_up(&self, api: &Api, token: &str, king: &str) {
        let preset = Some(json!({"preset": "default"}));
        for (method, path, body) in [
            ("PUT", self.path("/preset"), preset),
            ("POST", self.path(&format!("/kings/{king}")), None),
            ("POST", self.path("/ready"), None),
        ] {
            let (status, answer) = api.call(method, &path, Some(token), body).await;
            assert_eq!(status, 200, "{path}: {answer}");
        }
    }

    fn path(&self, rest: &str) -> String {
        format!("/api/games/{}{rest}", self.id)
    }

    async fn view(&self, api: &Api) -> Value {
        let (status, view) = api
            .call("GET", &self.path(""), Some(&self.white), None)
            .await;
        assert_eq!(status, 200, "{view}");
        view
    }

    /// Makes one quiet move for the side to move → `[from, to, landed]` as acknowledged; `Err`
    /// when the server stops answering.
    async fn play_one(&self, api: &Api) -> reqwest::Result<Value> {
        let (_, view) = api
            .try_call("GET", &self.path(""), Some(&self.white), None)
            .await?;
        let token = match view["to_move"].as_str() {
            Some("white") => &self.white,
            _ => &self.black,
        };
        let (_, own) = api
            .try_call("GET", &self.path(""), Some(token), None)
            .await?;
        let mv = quiet_move(api, self, &own).await?;
        let (status, answer) = api
            .try_call("POST", &self.path("/moves"), Some(token), Some(mv))
            .await?;
        assert_eq!(status, 200, "an acknowledged move: {answer}");
        let ply = &answer["ply"];
        Ok(json!([ply["from"], ply["to"], ply["landed"]]))
    }

    /// Plays until the server stops answering, telling `acks` of each acknowledged move.
    async fn play_until_refused(self, api: Api, acks: channel::UnboundedSender<()>) -> Vec<Value> {
        let mut acknowledged = Vec::new();
        while let Ok(ply) = self.play_one(&api).await {
            acknowledged.push(ply);
            let _ = acks.send(());
        }
        acknowledged
    }
}

/// A move of one of the caller's pieces to an empty square, by a piece that does not freeze the
/// game (a freeze would refuse the next move for five seconds).
async fn quiet_move(api: &Api, game: &Seats, own: &Value) -> reqwest::Result<Value> {
    let board = own["board"].as_array().expect("a board");
    let empty = |square: &Value| board.iter().all(|piece| piece["square"] != *square);
    let freezes = |piece: &Value| {
        let genome = Genome::parse(piece["dna"].as_str().expect("own DNA")).expect("DNA");
        genome.debuffs().iter().any(|d| d.codon() == "HSC")
    };
    for piece in board
        .iter()
        .filter(|p| p["color"] == own["you"] && !freezes(p))
    {
        let square = piece["square"].as_str().expect("a square");
        let (_, moves) = api
            .try_call("GET", &game.path(&format!("/moves/{square}")), None, None)
            .await?;
        let quiet = moves
            .as_array()
            .into_iter()
            .flatten()
            .find(|m| empty(&m["to"]));
        if let Some(m) = quiet {
            return Ok(json!({"from": m["from"], "to": m["to"]}));
        }
    }
    panic!("no quiet move in {own}");
}
