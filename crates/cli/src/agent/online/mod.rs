//! `gmo agent play`: the bridge that lets a local agent play on the server (docs/agents.md,
//! "The bridge"). It reads the bot's event stream, accepts the challenges its rules allow and
//! declines the rest with a reason, plays each game that starts with a fresh agent process (up to
//! `--concurrency` at once), and with `--matchmaking` challenges another online bot when idle.
//! When the server goes away it connects again, and the stream's first lines (the games in
//! progress) resume its games.

mod client;
mod game;
mod rules;

use client::Client;
use rules::{AcceptRules, parse_rules};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// `gmo agent play`'s flags.
#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    /// The server, e.g. http://127.0.0.1:8080.
    #[arg(long)]
    server: String,
    /// The bot account's personal token (scope `bot`); or set GMO_TOKEN.
    #[arg(long, env = "GMO_TOKEN", hide_env_values = true)]
    token: String,
    /// Which challenges to accept: clock=MIN..MAX (initial seconds), size=8x8+5x5,
    /// rated=yes|no|any, comma-separated; others are declined with a reason. Default: all.
    #[arg(long, default_value = "", value_parser = parse_rules)]
    accept: AcceptRules,
    /// Games played at once, each by its own agent process; challenges beyond are declined
    /// (`later`).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    concurrency: u32,
    /// The most an answer may take (less when the clock has less), e.g. 2s or 500ms.
    #[arg(long, default_value = "10s", value_parser = crate::arena::parse_within)]
    answer_within: Duration,
    /// When idle, challenge another online bot (a casual 3+2 game on the default board).
    #[arg(long)]
    matchmaking: bool,
    /// Stop after this many games have ended (for tests and one-off matches); 0 plays forever.
    #[arg(long, default_value_t = 0)]
    games: u32,
    /// The agent program and its arguments, after `--`.
    #[arg(last = true, required = true, num_args = 1..)]
    command: Vec<String>,
}

/// What the bridge's games share: which run, their presets, how many ended.
#[derive(Debug, Default)]
struct Games {
    running: HashSet<String>,
    presets: HashMap<String, String>,
    ended: u32,
}

type Shared = Arc<Mutex<Games>>;

pub fn run(args: PlayArgs) -> ExitCode {
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("gmo agent play: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(bridge(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("gmo agent play: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn bridge(args: PlayArgs) -> Result<(), String> {
    let client = Client::new(&args.server, &args.token);
    let me = whoami(&client).await?;
    eprintln!("playing as {me} on {}", args.server);
    let shared = Shared::default();
    let mut idle_since = Instant::now();
    loop {
        let mut lines = match client.stream("/api/stream/event").await {
            Ok(lines) => lines,
            Err(error) if error.status == 0 || error.status >= 500 => {
                eprintln!("the event stream is away ({error}); trying again");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
            Err(error) => return Err(format!("the event stream: {error}")),
        };
        eprintln!("event stream open");
        loop {
            let line = tokio::select! {
                line = lines.next() => line,
                () = tokio::time::sleep(Duration::from_secs(1)) => {
                    if done(&args, &shared) {
                        return Ok(());
                    }
                    if args.matchmaking && idle(&shared, &mut idle_since) {
                        seek(&client, &me).await;
                    }
                    continue;
                }
            };
            let Some(line) = line else { break };
            on_line(&args, &client, &me, &shared, &line).await;
            if done(&args, &shared) {
                return Ok(());
            }
        }
        eprintln!("the event stream closed; connecting again");
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

async fn whoami(client: &Client) -> Result<String, String> {
    let account = client
        .get("/api/account")
        .await
        .map_err(|e| format!("the token is not accepted: {e}"))?;
    if account["bot"] != true {
        eprintln!("note: this account is not a bot (POST /api/account/bot makes it one)");
    }
    account["username"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| "the account has no username".to_string())
}

fn done(args: &PlayArgs, shared: &Shared) -> bool {
    let games = shared.lock().unwrap_or_else(|p| p.into_inner());
    args.games > 0 && games.ended >= args.games && games.running.is_empty()
}

async fn on_line(args: &PlayArgs, client: &Client, me: &str, shared: &Shared, line: &Value) {
    match line["type"].as_str() {
        Some("challenge") => answer_challenge(args, client, me, shared, &line["challenge"]).await,
        Some("game_start") => start_game(args, client, shared, &line["game"]),
        Some("challenge_declined") => {
            eprintln!("challenge {} declined: {}", line["id"], line["reason"]);
        }
        _ => {}
    }
}

/// Accepts a challenge to `me` that the rules allow while a place is free; declines the rest.
async fn answer_challenge(
    args: &PlayArgs,
    client: &Client,
    me: &str,
    shared: &Shared,
    challenge: &Value,
) {
    let open = challenge["status"].as_str().is_none_or(|s| s == "open");
    if challenge["challenged"]["username"] != me || !open {
        return;
    }
    let id = challenge["id"].as_str().unwrap_or_default();
    let busy = {
        let games = shared.lock().unwrap_or_else(|p| p.into_inner());
        games.running.len() >= args.concurrency as usize
    };
    let verdict = if busy {
        Err("later")
    } else {
        args.accept.judge(challenge)
    };
    match verdict {
        Ok(()) => match client
            .post(&format!("/api/challenges/{id}/accept"), json!({}))
            .await
        {
            Ok(accepted) => {
                eprintln!("accepted challenge {id}");
                if let (Some(game), Some(preset)) =
                    (accepted["game"].as_str(), challenge["preset"].as_str())
                {
                    let mut games = shared.lock().unwrap_or_else(|p| p.into_inner());
                    games.presets.insert(game.to_string(), preset.to_string());
                }
            }
            Err(error) => eprintln!("could not accept challenge {id}: {error}"),
        },
        Err(reason) => {
            let body = json!({ "reason": reason });
            match client
                .post(&format!("/api/challenges/{id}/decline"), body)
                .await
            {
                Ok(_) => eprintln!("declined challenge {id}: {reason}"),
                Err(error) => eprintln!("could not decline challenge {id}: {error}"),
            }
        }
    }
}

/// Plays a game that started (or is in progress at a reconnect), unless it runs already.
fn start_game(args: &PlayArgs, client: &Client, shared: &Shared, game: &Value) {
    let (Some(id), Some(color), Some(token)) = (
        game["id"].as_str(),
        game["color"].as_str(),
        game["token"].as_str(),
    ) else {
        return;
    };
    let preset = {
        let mut games = shared.lock().unwrap_or_else(|p| p.into_inner());
        if !games.running.insert(id.to_string()) {
            return;
        }
        games.presets.remove(id)
    };
    let seat = game::Seat {
        id: id.to_string(),
        color: color.to_string(),
        client: client.with_token(token),
        argv: args.command.clone(),
        answer_within: args.answer_within,
        preset,
    };
    let shared = Arc::clone(shared);
    tokio::spawn(async move {
        let id = seat.id.clone();
        eprintln!("game {id}: playing {}", seat.color);
        match game::play(seat).await {
            Ok(ended) => eprintln!(
                "game {id}: {} ({})",
                ended.status,
                ended.reason.as_deref().unwrap_or("-")
            ),
            Err(error) => eprintln!("game {id}: given up: {error}"),
        }
        let mut games = shared.lock().unwrap_or_else(|p| p.into_inner());
        games.running.remove(&id);
        games.ended += 1;
    });
}

/// Idle for a while (no game running): true at most once every 30 s.
fn idle(shared: &Shared, since: &mut Instant) -> bool {
    let running = !shared
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .running
        .is_empty();
    if running {
        *since = Instant::now();
        return false;
    }
    if since.elapsed() < Duration::from_secs(5) {
        return false;
    }
    *since = Instant::now() + Duration::from_secs(25);
    true
}

/// Challenges another online bot, chosen by the clock's milliseconds among those listed.
async fn seek(client: &Client, me: &str) {
    let Ok(online) = client.get("/api/bots/online").await else {
        return;
    };
    let others: Vec<&str> = online
        .as_array()
        .map(|bots| {
            bots.iter()
                .filter_map(|bot| bot["username"].as_str())
                .filter(|name| *name != me)
                .collect()
        })
        .unwrap_or_default();
    if others.is_empty() {
        return;
    }
    let pick = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_millis() as usize)
        .unwrap_or(0)
        % others.len();
    let body = json!({"clock": {"initial_ms": 180_000, "increment_ms": 2_000}, "rated": false});
    match client
        .post(&format!("/api/challenges/{}", others[pick]), body)
        .await
    {
        Ok(challenge) => eprintln!("challenged {} ({})", others[pick], challenge["id"]),
        Err(error) => eprintln!("could not challenge {}: {error}", others[pick]),
    }
}
