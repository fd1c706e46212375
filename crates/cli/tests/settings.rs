//! Every documented setting works in its documented form: the real `gmo serve` is started with
//! every environment variable of docs/operations.md's tables, each in a form the page shows
//! (durations with and without units, a flag's variable as `1` or `yes`, proxies comma-separated)
//! and none at its default, and each setting must have taken — in the settings the server logs
//! as it starts, and where a client can see it (`GET /api/config`, the session cookie).

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const OPERATIONS: &str = include_str!("../../../docs/operations.md");

/// Each variable, a value in a form the page shows (never the default), and what the logged
/// settings say once it took (`DATABASE_URL` is added with a temporary file).
const GIVEN: &[(&str, &str, &str)] = &[
    ("BIND", "127.0.0.1:0", "bind: 127.0.0.1:0"),
    ("GMO_HEADER_TIMEOUT", "2m", "header_timeout: 120s"),
    ("GMO_MAX_CONNECTIONS", "500", "max_connections: 500"),
    ("GMO_REQUEST_TIMEOUT", "2500ms", "request_timeout: 2.5s"),
    ("GMO_RATE_LIMIT", "120", "rate_limit: 120"),
    ("GMO_DATABASE_CONNECTIONS", "4", "database_connections: 4"),
    (
        "GMO_TRUSTED_PROXY",
        "10.0.0.1,10.0.0.2",
        "trusted_proxies: [10.0.0.1, 10.0.0.2]",
    ),
    ("GMO_FIRST_MOVE_TIME", "45", "first_move_time: 45s"),
    ("GMO_EVENT_START_AFTER", "2m", "event_start_after: 120s"),
    ("GMO_CHALLENGE_EXPIRY", "90s", "challenge_expiry: 90s"),
    ("GMO_DISCOVERY", "1", "discovery: true"),
    ("GMO_AWAY_AFTER", "250ms", "away_after: 250ms"),
    ("GMO_CLAIM_AFTER", "5m", "claim_after: 300s"),
    ("GMO_PASSWORD_HASHES", "3", "password_hashes: 3"),
    ("GMO_PASSWORD_HASH_SHARE", "5", "password_hash_share: 5"),
    ("GMO_BEHIND_TLS", "yes", "behind_tls: true"),
    ("GMO_MAX_BOT_GAMES", "8", "max_bot_games: 8"),
    ("GMO_MAX_VALUE_JOBS", "2", "max_value_jobs: 2"),
    ("GMO_MAX_VALUE_QUEUE", "4", "max_value_queue: 4"),
    ("GMO_VALUE_GAMES", "50", "value_games: 50"),
    ("GMO_MAX_ANALYSES", "2", "max_analyses: 2"),
    ("GMO_MAX_ANALYSIS_QUEUE", "32", "max_analysis_queue: 32"),
    ("GMO_MAX_LAB_SEARCHES", "3", "max_lab_searches: 3"),
    (
        "GMO_MAX_ANALYSES_PER_CLIENT",
        "3",
        "max_analyses_per_client: 3",
    ),
    ("GMO_ANALYSIS_NODES", "5000", "analysis_nodes: 5000"),
    (
        "GMO_EXPIRE_UNSTARTED_GAMES_AFTER",
        "2h",
        "expire_unstarted_games_after: 7200s",
    ),
    (
        "GMO_EXPIRE_IDLE_LABS_AFTER",
        "7d",
        "expire_idle_labs_after: 604800s",
    ),
    ("GMO_RETENTION_INTERVAL", "90", "retention_interval: 90s"),
    ("GMO_SWEEP_INTERVAL", "500ms", "sweep_interval: 500ms"),
    ("GMO_MAX_SEEKS_PER_CLIENT", "5", "max_seeks_per_client: 5"),
    ("GMO_MAX_OPEN_SEEKS", "200", "max_open_seeks: 200"),
];

/// The variables docs/operations.md's tables name (`| \`--flag\` / \`VARIABLE\``).
fn documented() -> BTreeSet<&'static str> {
    OPERATIONS
        .lines()
        .filter_map(|line| line.strip_prefix("| `--"))
        .filter_map(|rest| rest.split_once("` / `"))
        .filter_map(|(_, rest)| rest.split_once('`'))
        .map(|(variable, _)| variable)
        .collect()
}

#[test]
fn the_test_gives_every_variable_of_the_operations_page() {
    let mut given: BTreeSet<&str> = GIVEN.iter().map(|(variable, ..)| *variable).collect();
    given.insert("DATABASE_URL");
    assert_eq!(given, documented());
}

#[tokio::test]
async fn every_variable_of_the_operations_page_takes_in_its_documented_form() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("gmo.db").display());
    let mut env: Vec<(&str, &str)> = GIVEN
        .iter()
        .map(|(name, value, _)| (*name, *value))
        .collect();
    env.push(("DATABASE_URL", &url));
    let server = Served::start(&env).expect("gmo serve starts with every documented variable");
    let settings = server.settings();
    for (variable, value, shown) in GIVEN {
        assert!(
            settings.contains(shown),
            "{variable}={value} did not take ({shown} expected): {settings}"
        );
    }
    assert!(
        settings.contains(&format!("database_url: {url:?}")),
        "{settings}"
    );
    let client = reqwest::Client::new();
    assert_eq!(server.config(&client).await["discovery"], true);
    let signed_up = client
        .post(format!("{}/api/account", server.base))
        .json(&serde_json::json!({"username": "operator", "password": "correct horse"}))
        .send()
        .await
        .expect("a sign-up");
    assert_eq!(signed_up.status(), 201);
    let cookie = signed_up.headers()["set-cookie"]
        .to_str()
        .expect("a cookie")
        .to_owned();
    assert!(cookie.contains("; Secure"), "GMO_BEHIND_TLS=yes: {cookie}");
}

#[tokio::test]
async fn a_flag_variable_takes_1_0_true_false_yes_no() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("gmo.db").display());
    let client = reqwest::Client::new();
    for (text, on) in [
        ("1", true),
        ("0", false),
        ("true", true),
        ("false", false),
        ("yes", true),
        ("no", false),
    ] {
        let env = [
            ("BIND", "127.0.0.1:0"),
            ("DATABASE_URL", &url),
            ("GMO_DISCOVERY", text),
            ("GMO_BEHIND_TLS", text),
        ];
        let server = Served::start(&env).expect("gmo serve starts");
        let settings = server.settings();
        for shown in [format!("discovery: {on}"), format!("behind_tls: {on}")] {
            assert!(settings.contains(&shown), "{text}: {settings}");
        }
        assert_eq!(server.config(&client).await["discovery"], on, "{text}");
    }
}

#[test]
fn a_variable_that_is_no_value_stops_the_server_naming_it() {
    let refused = Served::start(&[("BIND", "127.0.0.1:0"), ("GMO_DISCOVERY", "maybe")])
        .err()
        .expect("GMO_DISCOVERY=maybe is refused");
    assert!(
        refused.contains("maybe") && refused.contains("--discovery"),
        "{refused}"
    );
}

/// `gmo serve` started with only the given environment, until dropped.
struct Served {
    child: Child,
    base: String,
    /// What it printed before it listened (the settings among it).
    startup: Vec<String>,
}

impl Served {
    /// Started and listening, or what it said on stderr as it stopped.
    fn start(env: &[(&str, &str)]) -> Result<Served, String> {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gmo"))
            .arg("serve")
            .env_clear()
            .env("RUST_LOG", "info")
            .env("NO_COLOR", "1")
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("gmo serve runs");
        let stdout = child.stdout.take().expect("its stdout");
        let (lines, read) = mpsc::channel();
        // Reads (and drains, so that logging never blocks) the server's output.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = lines.send(line);
            }
        });
        let mut startup = Vec::new();
        loop {
            match read.recv_timeout(Duration::from_secs(60)) {
                Ok(line) => match line.strip_prefix("listening on ") {
                    Some(base) => {
                        let base = base.trim().to_owned();
                        return Ok(Served {
                            child,
                            base,
                            startup,
                        });
                    }
                    None => startup.push(line),
                },
                Err(_) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    let mut said = String::new();
                    if let Some(mut stderr) = child.stderr.take() {
                        let _ = stderr.read_to_string(&mut said);
                    }
                    return Err(said);
                }
            }
        }
    }

    /// The settings it logged as it started.
    fn settings(&self) -> &str {
        self.startup
            .iter()
            .find(|line| line.contains("gmo serve starts with"))
            .map(String::as_str)
            .unwrap_or_else(|| panic!("no settings were logged: {:?}", self.startup))
    }

    async fn config(&self, client: &reqwest::Client) -> serde_json::Value {
        client
            .get(format!("{}/api/config", self.base))
            .send()
            .await
            .expect("GET /api/config")
            .json()
            .await
            .expect("its JSON")
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
