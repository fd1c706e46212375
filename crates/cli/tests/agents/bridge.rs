//! Issue 33, the bridge against the real binaries: `gmo serve`, and `gmo agent play` running the
//! starter kit's agents for a bot account. A person challenges the bot: a board its rules
//! refuse is declined with the reason, a game it accepts is played to the end by the agent —
//! through a restart of the server in the middle, after which the bridge resumes the game.

use crate::support::gmo_process::Gmo;
use reqwest::Client;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A JSON request with a bearer token or a session cookie → (status, body).
async fn call(
    http: &Client,
    method: reqwest::Method,
    url: String,
    auth: &Auth,
    body: Option<Value>,
) -> (u16, Value) {
    let mut request = http.request(method, url);
    request = match auth {
        Auth::Token(token) => request.bearer_auth(token),
        Auth::Cookie(cookie) => request.header("cookie", cookie),
    };
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("the server answers");
    let status = response.status().as_u16();
    let text = response.text().await.unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

enum Auth {
    Token(String),
    Cookie(String),
}

/// Signs `name` up and returns a personal token with `scope` (a bot's account becomes one first).
async fn account(http: &Client, base: &str, name: &str, scope: &str) -> String {
    let response = http
        .post(format!("{base}/api/account"))
        .json(&json!({"username": name, "password": "correct horse battery"}))
        .send()
        .await
        .expect("sign-up answers");
    assert_eq!(response.status().as_u16(), 201, "sign-up of {name}");
    let cookie = response.headers()["set-cookie"]
        .to_str()
        .expect("ascii")
        .split(';')
        .next()
        .expect("name=value")
        .to_owned();
    let session = Auth::Cookie(cookie);
    if scope == "bot" {
        let (status, body) = call(
            http,
            reqwest::Method::POST,
            format!("{base}/api/account/bot"),
            &session,
            None,
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
    let body = json!({"description": "test", "scopes": [scope]});
    let url = format!("{base}/api/account/tokens");
    let (status, made) = call(http, reqwest::Method::POST, url, &session, Some(body)).await;
    assert_eq!(status, 201, "{made}");
    made["token"].as_str().expect("a token").to_owned()
}

/// A running `gmo agent play`, killed if the test ends before it does.
struct Bridge(Child);

impl Drop for Bridge {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

/// `gmo agent play` for `token` with the greedy agent (it never takes its own king, so a game
/// lasts); its log goes to a file read on failure.
fn bridge(base: &str, token: &str, log: &std::path::Path) -> Bridge {
    bridge_with(base, token, log, &[], "agents/python/greedy_agent.py")
}

/// [`bridge`] with more flags (`--matchmaking`) and another agent.
fn bridge_with(
    base: &str,
    token: &str,
    log: &std::path::Path,
    more: &[&str],
    agent: &str,
) -> Bridge {
    let child = Command::new(env!("CARGO_BIN_EXE_gmo"))
        .current_dir(root())
        .args(["agent", "play", "--server", base, "--token", token])
        .args([
            "--accept",
            "size=8x8",
            "--games",
            "1",
            "--answer-within",
            "5s",
        ])
        .args(more)
        .args(["--", "python3", agent])
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log).expect("a log file"))
        .spawn()
        .expect("gmo agent play starts");
    Bridge(child)
}

/// The person's event stream, opened before what it is to show is done.
struct Events {
    response: reqwest::Response,
    buffer: Vec<u8>,
}

impl Events {
    async fn open(http: &Client, base: &str, token: &str) -> Events {
        let response = http
            .get(format!("{base}/api/stream/event"))
            .bearer_auth(token)
            .send()
            .await
            .expect("the event stream opens");
        assert_eq!(response.status().as_u16(), 200);
        Events {
            response,
            buffer: Vec::new(),
        }
    }

    /// The next line `wanted` accepts (within 20 s).
    async fn wait(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            while let Some(at) = self.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=at).collect();
                if let Ok(value) = serde_json::from_slice::<Value>(&line) {
                    if wanted(&value) {
                        return value;
                    }
                }
            }
            let chunk = tokio::time::timeout(Duration::from_secs(1), self.response.chunk()).await;
            if let Ok(Ok(Some(chunk))) = chunk {
                self.buffer.extend_from_slice(&chunk);
            }
        }
        panic!("no such line on the event stream within 20 s");
    }
}

async fn game_view(http: &Client, base: &str, id: &str, token: &str) -> Value {
    let url = format!("{base}/api/games/{id}");
    let (status, view) = call(
        http,
        reqwest::Method::GET,
        url,
        &Auth::Token(token.into()),
        None,
    )
    .await;
    assert_eq!(status, 200, "{view}");
    view
}

/// The person's side: sets up with the default preset (king d1 or d8) and plays the first legal
/// move on each turn, until the game ends or `plies` of its own were played → the last view.
async fn person_plays(
    http: &Client,
    base: &str,
    id: &str,
    token: &str,
    color: &str,
    plies: u32,
) -> Value {
    let seat = Auth::Token(token.into());
    let path = format!("{base}/api/games/{id}");
    let view = game_view(http, base, id, token).await;
    if view["status"] == "setup" && view["seats"][color]["ready"] != true {
        let king = if color == "white" { "d1" } else { "d8" };
        let put = reqwest::Method::PUT;
        let (status, body) = call(
            http,
            put,
            format!("{path}/preset"),
            &seat,
            Some(json!({"preset": "default"})),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        let (status, body) = call(
            http,
            reqwest::Method::POST,
            format!("{path}/kings/{king}"),
            &seat,
            Some(json!({})),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        let (status, body) = call(
            http,
            reqwest::Method::POST,
            format!("{path}/ready"),
            &seat,
            Some(json!({})),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
    let mut played = 0;
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let view = game_view(http, base, id, token).await;
        let over = !matches!(view["status"].as_str(), Some("setup" | "in_progress"));
        if over || played >= plies || Instant::now() > deadline {
            return view;
        }
        if view["status"] != "in_progress" || view["to_move"] != color {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        let (_, legal) = call(
            http,
            reqwest::Method::GET,
            format!("{path}/legal"),
            &seat,
            None,
        )
        .await;
        let (route, body) = match legal["promotion"].as_array().and_then(|p| p.first()) {
            Some(genome) => ("promotion", json!({"genome": genome})),
            None => match quiet_move(&view, &legal) {
                Some(m) => ("moves", json!({"from": m["from"], "to": m["to"]})),
                None => ("resign", json!({})),
            },
        };
        let (status, _) = call(
            http,
            reqwest::Method::POST,
            format!("{path}/{route}"),
            &seat,
            Some(body),
        )
        .await;
        if status == 200 {
            played += 1;
        }
    }
}

/// A move that keeps the game going: it neither loses nor exposes the mover's king and takes no
/// king (so that the game lasts the plies the test wants); failing that, one that loses no king.
fn quiet_move<'a>(view: &Value, legal: &'a Value) -> Option<&'a Value> {
    let moves = legal["legal"].as_array()?;
    let king_on = |square: &Value| {
        view["board"].as_array().is_some_and(|board| {
            board
                .iter()
                .any(|p| p["square"] == *square && p["king"] == true)
        })
    };
    moves
        .iter()
        .find(|m| m["loses_own_king"] != true && m["exposes_king"] != true && !king_on(&m["to"]))
        .or_else(|| moves.iter().find(|m| m["loses_own_king"] != true))
}

fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).expect("a free port");
    listener.local_addr().expect("its address").port()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bridge_declines_by_its_rules_and_plays_an_accepted_game_through_a_restart() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("gmo.db").display());
    let bind = format!("127.0.0.1:{}", free_port());
    let server = Gmo::start_at(&url, &bind);
    let base = server.base.clone();
    let http = Client::new();
    let bot = account(&http, &base, "randombot", "bot").await;
    let person = account(&http, &base, "ada", "play").await;
    let log = dir.path().join("bridge.log");
    let mut bridge = bridge(&base, &bot, &log);
    let read_log = || std::fs::read_to_string(&log).unwrap_or_default();

    // Online once its event stream is open.
    let started = Instant::now();
    loop {
        let (_, online) = call(
            &http,
            reqwest::Method::GET,
            format!("{base}/api/bots/online"),
            &Auth::Token(person.clone()),
            None,
        )
        .await;
        if online
            .as_array()
            .is_some_and(|bots| bots.iter().any(|b| b["username"] == "randombot"))
        {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the bot never came online: {}",
            read_log()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // A 5×5 board: declined, with the reason its rules give.
    let challenge = |body: Value| {
        let http = http.clone();
        let url = format!("{base}/api/challenges/randombot");
        let person = person.clone();
        async move {
            call(
                &http,
                reqwest::Method::POST,
                url,
                &Auth::Token(person),
                Some(body),
            )
            .await
        }
    };
    let mut events = Events::open(&http, &base, &person).await;
    let (status, small) =
        challenge(json!({"clock": {"initial_ms": 300_000}, "width": 5, "height": 5})).await;
    assert_eq!(status, 201, "{small}");
    let small_id = small["id"].as_str().expect("an id").to_owned();
    let declined = events
        .wait(|line| line["type"] == "challenge_declined" && line["id"] == small_id.as_str())
        .await;
    assert_eq!(declined["reason"], "board_size", "{declined}");

    // An 8×8 board: accepted; the game starts on the person's stream.
    let (status, big) =
        challenge(json!({"clock": {"initial_ms": 600_000}, "color": "white"})).await;
    assert_eq!(status, 201, "{big}");
    let start = events.wait(|line| line["type"] == "game_start").await;
    let id = start["game"]["id"].as_str().expect("a game").to_owned();
    let seat = start["game"]["token"]
        .as_str()
        .expect("a seat token")
        .to_owned();
    assert_eq!(start["game"]["color"], "white", "{start}");

    // Three plies each, then the server restarts on the same address and database.
    let view = person_plays(&http, &base, &id, &seat, "white", 3).await;
    assert_eq!(view["status"], "in_progress", "{view}\n{}", read_log());
    server.terminate();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let server = Gmo::start_at(&url, &bind);
    assert_eq!(server.base, base);

    // Five more plies each after the restart: the bridge resumed the game and answers every turn.
    let view = person_plays(&http, &base, &id, &seat, "white", 5).await;
    let log_text = read_log();
    assert_eq!(view["status"], "in_progress", "{view}\n{log_text}");
    let after = view["moves_played"].as_u64().unwrap_or(0);
    assert!(after >= 15, "{view}\n{log_text}");
    // The person resigns: the bot's side wins, and with --games 1 the bridge exits by itself.
    let resign = format!("{base}/api/games/{id}/resign");
    let (status, body) = call(
        &http,
        reqwest::Method::POST,
        resign,
        &Auth::Token(seat.clone()),
        Some(json!({})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = bridge.0.try_wait().expect("a status") {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "the bridge did not stop: {}",
            read_log()
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(status.success(), "{status}: {}", read_log());
    let log_text = read_log();
    assert!(log_text.contains("declined challenge"), "{log_text}");
    assert!(
        log_text.contains("connecting again") || log_text.contains("is away"),
        "the bridge saw the restart: {log_text}"
    );
    server.terminate();
}

/// `--matchmaking`: two bots online, each with its bridge, find each other when idle: one
/// challenges the other, which accepts, and their random agents play the game to its end; with
/// `--games 1` both bridges then exit by themselves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_bridges_with_matchmaking_find_each_other_and_play_a_game() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("gmo.db").display());
    let server = Gmo::start(&url);
    let base = server.base.clone();
    let http = Client::new();
    let logs = [dir.path().join("one.log"), dir.path().join("two.log")];
    let mut bridges = Vec::new();
    for (name, log) in ["onebot", "twobot"].iter().zip(&logs) {
        let token = account(&http, &base, name, "bot").await;
        bridges.push(bridge_with(
            &base,
            &token,
            log,
            &["--matchmaking"],
            "agents/python/random_agent.py",
        ));
    }
    let read = |i: usize| std::fs::read_to_string(&logs[i]).unwrap_or_default();
    // Generous: a random game has freezes of several seconds (debuffs) that both sides wait out.
    let deadline = Instant::now() + Duration::from_secs(240);
    for (i, bridge) in bridges.iter_mut().enumerate() {
        let status = loop {
            if let Some(status) = bridge.0.try_wait().expect("a status") {
                break status;
            }
            assert!(
                Instant::now() < deadline,
                "bridge {i} still running:\n{}\n---\n{}",
                read(0),
                read(1)
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        assert!(status.success(), "{status}: {}", read(i));
    }
    let (one, two) = (read(0), read(1));
    assert!(
        one.contains("challenged twobot") || two.contains("challenged onebot"),
        "one of them challenged the other:\n{one}\n---\n{two}"
    );
    assert!(
        one.contains("accepted challenge") || two.contains("accepted challenge"),
        "{one}\n---\n{two}"
    );
    // The game they played is over, as both saw it end.
    for log in [&one, &two] {
        let ended = log.lines().any(|line| {
            line.contains(": white_won (")
                || line.contains(": black_won (")
                || line.contains(": draw (")
        });
        assert!(ended, "{log}");
    }
    server.terminate();
}
